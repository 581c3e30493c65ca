/**
 * `npm run record-histories`: re-records the workflow histories under test/replay/histories
 * that `test/replay/replay.test.ts` replays against the current workflow code. Run it after
 * a deliberate, compatible change to workflow code (or to add a scenario); needs only the
 * local services (it starts them) and takes a few minutes.
 *
 * Scenarios: a session and its learning job, an approval while it waits and after it was
 * decided, a learning job that publishes, the scope-index entity that publication signalled, a rollback, an experiment that continues-as-new (its first run, its last run and
 * an evaluation batch) and an experiment that fails on its time limit.
 *
 * Histories of learning jobs recorded on older code stay as they were: this script does not
 * write them (`learning-job`, `learning-job-published`: a step for each write;
 * `learning-job-patch-markers`: the retired patches' markers). The current code must go on
 * replaying them (docs/versioning.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { createSkillStore } from '../storage';
import { decideRevision } from '../client/approvals';
import { loadConfig } from '../runtime/config';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { startExperiment, waitForExperiment } from '../client/optimization';
import {
  approvalWorkflowId,
  makeWeatherDataset,
  scopeIndexWorkflowId,
  scopeKey as scopeKeyOf,
  sessionWorkflowId,
  skillIdForName,
  WEATHER_SEED_SKILL,
  type ExperimentRequestInput,
  type Scope,
  type SkillSpec,
} from '../core';
import { infraEnv, infraUp } from '../infra';
import { REPO_ROOT } from '../infra/paths';
import { rollbackWorkflowId } from '../core/workflow-ids';
import { writeHistoryFile } from '../test/replay/history-files';
import { exampleSession } from '../test/support/sessions';
import { createEvaluatorWorker } from '../workers/evaluator';
import { connectWorkerTemporal } from '../workers/connection';
import { startMainWorker } from '../workers/in-process';
import { rollbackWorkflow } from '../workflows';

type Store = ReturnType<typeof createSkillStore>;

/** A managed skill with two published revisions: the first one is a rollback target. */
async function skillWithTwoRevisions(store: Store, stamp: string) {
  const scope: Scope = { mode: 'app', app: `replay-rollback-${stamp}` };
  const key = scopeKeyOf(scope);
  const spec: SkillSpec = { ...WEATHER_SEED_SKILL, name: 'weather-report' };
  const skillId = skillIdForName(spec.name);
  const v1 = `rev-replay-v1-${stamp}`;
  const v2 = `rev-replay-v2-${stamp}`;
  const at = new Date().toISOString();
  await store.createRevision({
    id: v1,
    skillId,
    scopeKey: key,
    scope,
    action: 'create',
    status: 'archived',
    spec,
    source: 'manual',
    jobId: 'replay-seed',
    createdAt: at,
    updatedAt: at,
    promotedAt: at,
  });
  const spec2 = { ...spec, description: `${spec.description} (v2)` };
  await store.createRevision({
    id: v2,
    skillId,
    scopeKey: key,
    scope,
    action: 'update',
    status: 'active',
    spec: spec2,
    parentId: v1,
    source: 'manual',
    jobId: 'replay-seed',
    createdAt: at,
    updatedAt: at,
    promotedAt: at,
  });
  await store.writeActive(key, skillId, { skillId, revisionId: v2, spec: spec2, publishedAt: at, managed: true }, null);
  return { scopeKey: key, skillId, revisionId: v1 };
}

function weatherRequest(evaluatorTaskQueue: string, stamp: string, options: Record<string, unknown>): ExperimentRequestInput {
  const dataset = makeWeatherDataset({ seed: 7, feedback: 10, validation: 10, holdout: 10, criticalEvery: 4, id: `weather-replay-${stamp}-${Object.keys(options).join('-')}` });
  return {
    seed: WEATHER_SEED_SKILL,
    dataset,
    scope: { mode: 'app', app: 'replay' },
    submit: false,
    options: { maxIterations: 3, randomSeed: 7, evaluatorTaskQueue, ...options },
  } as ExperimentRequestInput;
}

// RECORD_HISTORIES_DIR: record elsewhere (to take one new history without re-recording the others).
export const HISTORIES_DIR = process.env.RECORD_HISTORIES_DIR ?? join(REPO_ROOT, 'test', 'replay', 'histories');

async function save(client: Client, name: string, workflowId: string, runId?: string): Promise<void> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  writeHistoryFile(join(HISTORIES_DIR, `${name}.json`), workflowId, history);
  console.error(`[record] ${name}: ${history.events?.length ?? 0} events (${workflowId})`);
}

/** The run ids of a workflow id, first to last, following continue-as-new links backwards. */
async function runChain(client: Client, workflowId: string): Promise<string[]> {
  const chain: string[] = [];
  let runId: string | undefined;
  for (;;) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
    const desc = await client.workflow.getHandle(workflowId, runId).describe();
    chain.unshift(desc.runId);
    runId = started?.continuedExecutionRunId ?? undefined;
    if (!runId) return chain;
  }
}

async function main(): Promise<void> {
  const state = await infraUp({ log: (l) => console.error(`[infra] ${l}`) });
  const base = loadConfig({ ...process.env, ...infraEnv(state) });
  const stamp = Date.now().toString(36);
  const evaluatorQueue = `record-eval-${stamp}`;
  const config = {
    ...base,
    temporal: { ...base.temporal, evaluatorTaskQueue: evaluatorQueue },
    governance: { ...base.governance, humanGate: 'create_only' as const, approvalTimeoutMs: undefined, shadowMode: false },
  };
  mkdirSync(HISTORIES_DIR, { recursive: true });
  const w = await startMainWorker(config);
  const connection = await connectWorkerTemporal(w.config);
  const evaluators = await Promise.all(
    [
      { taskQueue: evaluatorQueue, delayMs: 0 },
      { taskQueue: `${evaluatorQueue}-slow`, delayMs: 1_500 },
    ].map(async ({ taskQueue, delayMs }) => {
      const { worker } = await createEvaluatorWorker({ config: w.config, connection, taskQueue, identity: `${taskQueue}-worker`, evaluator: { delayMs } });
      return { worker, running: worker.run() };
    }),
  );
  const store = createSkillStore(w.config.s3);
  const deps = { client: w.client, store, config: w.config };
  try {
    // Online learning: session → job → approval (waiting, then approved).
    const app = `replay-${stamp}`;
    const started = await startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report') });
    const outcome = await waitForLearningJob(w, started.jobWorkflowId);
    const rev = outcome.revisions[0];
    if (!rev || rev.status !== 'pending_approval') throw new Error(`expected a held revision, got ${JSON.stringify(outcome)}`);
    await save(w.client, 'learning-job-held', started.jobWorkflowId);
    await save(w.client, 'session', sessionWorkflowId(started.scopeKey, 's1'));
    await save(w.client, 'approval-waiting', approvalWorkflowId(rev.revisionId));
    await decideRevision(deps, rev.revisionId, { decision: 'approve', reviewer: 'recorder', comment: 'recorded for replay tests' });
    await save(w.client, 'approval-approved', approvalWorkflowId(rev.revisionId));
    // The scope's index entity after the approval's publication signalled it (still running: it never ends).
    await save(w.client, 'scope-index', scopeIndexWorkflowId(started.scopeKey));
    // A job that publishes (an update of that skill: the human gate holds creates only).
    const followUp = await startLearningJob(deps, { app, user: 'u1', sessionId: 's1', events: exampleSession('weather-report-followup') });
    const published = await waitForLearningJob(w, followUp.jobWorkflowId);
    if (published.revisions[0]?.status !== 'active') throw new Error(`expected a published update, got ${JSON.stringify(published)}`);
    await save(w.client, 'learning-job-publishing', followUp.jobWorkflowId);

    // Rollback of a skill with an earlier revision.
    const skill = await skillWithTwoRevisions(store, stamp);
    const rollbackId = rollbackWorkflowId(skill.scopeKey, skill.skillId, `replay-${stamp}`);
    await w.client.workflow
      .execute(rollbackWorkflow, {
        taskQueue: w.config.temporal.taskQueue,
        workflowId: rollbackId,
        args: [{ scopeKey: skill.scopeKey, skillId: skill.skillId, targetRevisionId: skill.revisionId, reviewer: 'recorder' }],
      })
      .catch((e: Error) => console.error(`[record] rollback ended with: ${e.message} (its history is recorded all the same)`));
    await save(w.client, 'rollback', rollbackId);

    // GEPA: an experiment continuing-as-new after every iteration, and one that hits its time limit.
    const continued = await startExperiment(deps, weatherRequest(evaluatorQueue, stamp, { maxIterations: 3 }), { iterationsPerRun: 1 });
    await waitForExperiment(w.client, continued.experimentId);
    const runs = await runChain(w.client, continued.workflowId);
    if (runs.length < 2) throw new Error(`expected the experiment to continue-as-new, it ran ${runs.length} run(s)`);
    await save(w.client, 'experiment-continued-as-new', continued.workflowId, runs[0]);
    await save(w.client, 'experiment-last-run', continued.workflowId, runs[runs.length - 1]);
    const batches = await w.client.workflow.list({ query: `WorkflowType = 'evaluationBatchWorkflow' AND ExecutionStatus = 'Completed'` });
    for await (const batch of batches) {
      if (batch.workflowId.includes(continued.experimentId)) {
        await save(w.client, 'evaluation-batch', batch.workflowId, batch.runId);
        break;
      }
    }
    const limited = await startExperiment(deps, weatherRequest(`${evaluatorQueue}-slow`, stamp, { timeLimitMs: 1_500 }));
    const report = await waitForExperiment(w.client, limited.experimentId);
    if (report.stopReason !== 'time_limit') throw new Error(`expected a time-limit failure, got ${report.stopReason}`);
    const limitedRuns = await runChain(w.client, limited.workflowId);
    await save(w.client, 'experiment-time-limit', limited.workflowId, limitedRuns[limitedRuns.length - 1]);
  } finally {
    for (const e of evaluators) {
      e.worker.shutdown();
      await e.running;
    }
    await connection.close();
    await w.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`record-histories: ${(e as Error).stack ?? e}`);
    process.exit(1);
  },
);
