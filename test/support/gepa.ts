import { connectWorkerTemporal } from '../../workers/connection';
import { createSkillStore, type SkillStore } from '../../storage';
import { scopeKey as scopeKeyOf, skillIdForName, type Dataset, type EvolutionConfig, type ExperimentRequestInput, type Scope, type SkillSpec } from '../../core';
import { makeWeatherDataset, WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import type { OptimizationDeps } from '../../client/optimization';
import { createEvaluatorWorker, type EvaluationWindow, type WeatherEvaluatorOptions } from '../../workers/evaluator';
import { realServices, uniqueName } from './infra';
import { startMainWorker, type RunningWorker } from '../../workers/in-process';

export interface GepaHarness {
  config: EvolutionConfig;
  main: RunningWorker;
  store: SkillStore;
  deps: OptimizationDeps;
  evaluatorQueue: string;
  windows: EvaluationWindow[];
  /** Another evaluator, on its own queue unless one is given (returns the queue). */
  addEvaluator(opts: { maxConcurrent?: number; evaluator?: Omit<WeatherEvaluatorOptions, 'identity' | 'onWindow'> }, taskQueue?: string): Promise<string>;
  /** Stops every evaluator the harness runs on this queue (another may then take it over). */
  stopEvaluators(taskQueue: string): Promise<void>;
  /** Cases the evaluators on this queue evaluated (completed calls), optionally only for one experiment. */
  evaluatedCases(taskQueue: string, experimentId?: string): number;
  stop(): Promise<void>;
}

/** Real dev server, S3 and model server; the real main worker; in-process example evaluators on unique queues. */
export async function startGepaHarness(): Promise<GepaHarness> {
  const base = await realServices();
  // The main worker's default evaluator queue is the harness's first evaluator.
  const defaultQueue = uniqueName('eval');
  const main = await startMainWorker({ ...base, temporal: { ...base.temporal, evaluatorTaskQueue: defaultQueue } });
  const config = main.config;
  const store = createSkillStore(config.s3);
  const connection = await connectWorkerTemporal(config);
  const windows: EvaluationWindow[] = [];
  const evaluators: { taskQueue: string; stopped: boolean; stop(): Promise<void> }[] = [];

  async function addEvaluator(opts: Parameters<GepaHarness['addEvaluator']>[0], taskQueue = uniqueName('eval')): Promise<string> {
    const { worker } = await createEvaluatorWorker({
      config,
      connection,
      taskQueue,
      identity: `${taskQueue}-worker-${evaluators.length}`,
      maxConcurrent: opts.maxConcurrent,
      evaluator: { ...opts.evaluator, onWindow: (w) => windows.push(w) },
    });
    const running = worker.run();
    evaluators.push({
      taskQueue,
      stopped: false,
      async stop() {
        if (this.stopped) return;
        this.stopped = true;
        worker.shutdown();
        await running;
      },
    });
    return taskQueue;
  }

  async function stopEvaluators(taskQueue: string): Promise<void> {
    for (const e of evaluators) if (e.taskQueue === taskQueue) await e.stop();
  }

  function evaluatedCases(taskQueue: string, experimentId?: string): number {
    return windows
      .filter(
        (w) => w.identity.startsWith(`${taskQueue}-worker-`) && w.outcome === 'completed' && (experimentId === undefined || w.workflowId.startsWith(`experiment/${experimentId}/`)),
      )
      .reduce((n, w) => n + w.cases, 0);
  }

  const evaluatorQueue = await addEvaluator({}, defaultQueue);
  return {
    config,
    main,
    store,
    deps: { client: main.client, store, config },
    evaluatorQueue,
    windows,
    addEvaluator,
    stopEvaluators,
    evaluatedCases,
    async stop() {
      for (const e of evaluators) await e.stop();
      await connection.close();
      await main.stop();
    },
  };
}

export interface ManagedSkill {
  scope: Scope;
  scopeKey: string;
  skillId: string;
  revisionId: string;
  spec: SkillSpec;
}

/** A published, managed skill (revision + active pointer), as the publisher leaves one. */
export async function seedManagedSkill(
  store: SkillStore,
  opts: { name?: string; spec?: SkillSpec; revisionId?: string; managed?: boolean; app?: string } = {},
): Promise<ManagedSkill> {
  const scope: Scope = { mode: 'app', app: opts.app ?? uniqueName('gepa-app') };
  const key = scopeKeyOf(scope);
  const spec: SkillSpec = opts.spec ?? { ...WEATHER_SEED_SKILL, steps: [...WEATHER_SEED_SKILL.steps, 'Summarize the results per city.'], name: opts.name ?? 'weather-report' };
  const skillId = skillIdForName(spec.name);
  const revisionId = opts.revisionId ?? uniqueName('rev-seed');
  const at = new Date().toISOString();
  await store.createRevision({
    id: revisionId,
    skillId,
    scopeKey: key,
    scope,
    action: 'create',
    status: 'active',
    spec,
    source: 'manual',
    jobId: 'test-seed',
    createdAt: at,
    updatedAt: at,
    promotedAt: at,
  });
  await store.writeActive(key, skillId, { skillId, revisionId, spec, publishedAt: at, managed: opts.managed ?? true }, null);
  return { scope, scopeKey: key, skillId, revisionId, spec };
}

/** Publishes another revision of the skill (the experiment's parent becomes stale). */
export async function publishNewRevision(store: SkillStore, skill: ManagedSkill): Promise<string> {
  const revisionId = uniqueName('rev-newer');
  const at = new Date().toISOString();
  const spec = { ...skill.spec, description: `${skill.spec.description} (edited by hand)` };
  await store.createRevision({
    id: revisionId,
    skillId: skill.skillId,
    scopeKey: skill.scopeKey,
    scope: skill.scope,
    action: 'update',
    status: 'active',
    spec,
    parentId: skill.revisionId,
    source: 'manual',
    jobId: 'test-edit',
    createdAt: at,
    updatedAt: at,
    promotedAt: at,
  });
  const current = await store.readActive(skill.scopeKey, skill.skillId);
  await store.writeActive(skill.scopeKey, skill.skillId, { skillId: skill.skillId, revisionId, spec, publishedAt: at, managed: true }, current!.etag);
  return revisionId;
}

/** A frozen weather dataset with a unique id (10+ cases per split unless told otherwise). */
export function weatherDataset(opts: { seed?: number; feedback?: number; validation?: number; holdout?: number; criticalEvery?: number } = {}): Dataset {
  return makeWeatherDataset({
    seed: opts.seed ?? 7,
    feedback: opts.feedback ?? 10,
    validation: opts.validation ?? 10,
    holdout: opts.holdout ?? 10,
    criticalEvery: opts.criticalEvery ?? 4,
    id: uniqueName('weather'),
  });
}

/** An experiment on the weak weather seed, evaluated on `evaluatorQueue`. */
export function weatherRequest(
  evaluatorQueue: string,
  dataset: Dataset,
  extra: Partial<ExperimentRequestInput> & { options?: Record<string, unknown> } = {},
): ExperimentRequestInput {
  const { options, ...rest } = extra;
  return {
    seed: WEATHER_SEED_SKILL,
    dataset,
    scope: { mode: 'app', app: 'gepa-tests' },
    submit: false,
    ...rest,
    options: { maxIterations: 6, randomSeed: 7, evaluatorTaskQueue: evaluatorQueue, ...options },
  } as ExperimentRequestInput;
}
