/**
 * `npm run record-histories`: re-records the workflow histories under test/replay/histories
 * that `test/replay/replay.test.ts` replays against the current workflow code. Run it after
 * a deliberate, compatible change to workflow code (or to add a scenario); needs only the
 * local services (it starts them) and takes a few minutes.
 *
 * Scenarios: a session and its learning job, an approval while it waits and after it was
 * decided, a learning job that publishes, the scope-index and scope-usage entities that publication signalled, a rollback, and GEPA on
 * searchVersion 2: an experiment that continues-as-new (its first run, its last run with a merge and multi-seed
 * selection, an evaluation batch run by the evaluator and one answered from the cache), an experiment cancelled
 * cleanly and its resumed run.
 *
 * Histories recorded on older code stay as they were: this script does not write the learning job planned
 * apart from its review (`learning-job-publishing-planned-apart`), the approval and rollback recorded while their
 * waits cancelled timers (`*-before-alarms`), nor those of
 * experiments prepared before searchVersion 2 (`experiment-continued-as-new`, `experiment-last-run`, `evaluation-batch`,
 * `experiment-time-limit`). The current code must go on replaying them; the
 * retired ones (test/replay/retired) it must no longer replay (docs/versioning.md).
 * `learning-job-held`, `learning-job-publishing`, `scope-index` and `scope-usage` as committed were recorded while
 * patches now retired to a replay-only deprecatePatch were live, and hold their markers: the current code records
 * none, so re-recording them loses that coverage (the replay test says so); keep them until those patches are removed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { createSkillStore } from '../storage';
import { decideRevision } from '../client/approvals';
import { loadConfig } from '../runtime/config';
import { startLearningJob, waitForLearningJob } from '../client/learning';
import { cancelExperiment, resumeExperiment, startExperiment, waitForExperiment } from '../client/optimization';
import {
  approvalWorkflowId,
  scopeIndexWorkflowId,
  scopeKey as scopeKeyOf,
  sessionWorkflowId,
  skillIdForName,
  type ExperimentRequestInput,
  type Scope,
  type SkillSpec,
} from '../core';
import { makeWeatherDataset, WEATHER_SEED_SKILL } from '../workers/evaluator/simulated-weather';
import { infraEnv, infraUp } from '../infra';
import { REPO_ROOT } from '../infra/paths';
import { waitUntil } from '../infra/process';
import { evaluationWorkflowId, rollbackWorkflowId, scopeUsageWorkflowId } from '../core/workflow-ids';
import { writeHistoryFile } from '../test/replay/history-files';
import { exampleSession } from '../test/support/sessions';
import { createEvaluatorWorker } from '../workers/evaluator';
import { connectWorkerTemporal } from '../workers/connection';
import { startMainWorker } from '../workers/in-process';
import { rollbackWorkflow, scopeUsageStateQuery } from '../workflows';
import { runToExit } from '../runtime/exit';

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

function weatherRequest(evaluatorTaskQueue: string, stamp: string, options: Record<string, unknown>, seed = 7): ExperimentRequestInput {
  const dataset = makeWeatherDataset({
    seed,
    feedback: 10,
    validation: 10,
    holdout: 10,
    criticalEvery: 4,
    id: `weather-replay-${stamp}-${seed}-${Object.keys(options).join('-')}`,
  });
  return {
    seed: WEATHER_SEED_SKILL,
    dataset,
    scope: { mode: 'app', app: 'replay' },
    submit: false,
    options: { maxIterations: 3, randomSeed: 7, evaluatorTaskQueue, ...options },
  } as ExperimentRequestInput;
}

const validationCase = (n: number) => `weather-validation-${String(n).padStart(3, '0')}`;
const MERGE_OVERRIDES = [
  ...[1, 2, 3].map((n) => ({ caseId: validationCase(n), score: 1, whenSpecMatches: 'Make sure to' })),
  ...[4, 5, 6].map((n) => ({ caseId: validationCase(n), score: 1, whenSpecMatches: 'Do not forget' })),
  { caseId: validationCase(7), score: 1, whenSpecMatches: '^(?![\\s\\S]*Make sure to)' },
];

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
      // Specialists (as in test/integration/gepa-search-options.test.ts), so the recorded search merges.
      { taskQueue: `${evaluatorQueue}-merge`, delayMs: 0, scoreOverrides: MERGE_OVERRIDES },
    ].map(async ({ taskQueue, delayMs, scoreOverrides }) => {
      const { worker } = await createEvaluatorWorker({ config: w.config, connection, taskQueue, identity: `${taskQueue}-worker`, evaluator: { delayMs, scoreOverrides } });
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
    // The scope's usage entity once it has counted both jobs' records (still running: it ends after an idle hour).
    const usageId = scopeUsageWorkflowId(started.scopeKey);
    await waitUntil(
      "the scope's usage workflow counting its records",
      async () => {
        const state = await w.client.workflow.getHandle(usageId).query(scopeUsageStateQuery);
        return state.bursts >= 1 && state.pending === 0;
      },
      60_000,
    );
    await save(w.client, 'scope-usage', usageId);

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

    // GEPA on searchVersion 2 (the experiments recorded before it — experiment-continued-as-new, experiment-last-run,
    // evaluation-batch, experiment-time-limit — stay as they were). An experiment that continues as new every two
    // iterations, with a merge and multi-seed selection in its last run; its batches run on the evaluator, then
    // again from the evaluation cache; a cancelled experiment, and its resumed run.
    const v2Request = () =>
      weatherRequest(
        `${evaluatorQueue}-merge`,
        stamp,
        {
          maxIterations: 4,
          randomSeed: 11,
          merge: { enabled: true, maxMerges: 2, subsampleSize: 4 },
          selection: { method: 'multi_seed', seeds: 2, finalists: 2 },
        },
        43,
      );
    const v2 = await startExperiment(deps, v2Request(), { iterationsPerRun: 2 });
    const v2Report = await waitForExperiment(w.client, v2.experimentId);
    if (!v2Report.merges?.attempted) throw new Error(`expected a merge in the recorded experiment, got ${JSON.stringify(v2Report.merges)}`);
    const v2Runs = await runChain(w.client, v2.workflowId);
    if (v2Runs.length < 2) throw new Error(`expected the experiment to continue-as-new, it ran ${v2Runs.length} run(s)`);
    await save(w.client, 'experiment-v2-first-run', v2.workflowId, v2Runs[0]);
    await save(w.client, 'experiment-v2-last-run', v2.workflowId, v2Runs[v2Runs.length - 1]);
    await save(w.client, 'evaluation-batch-v2', evaluationWorkflowId(v2.workflowId, 'e-seed-validation'));
    const cached = await startExperiment(deps, v2Request(), { iterationsPerRun: 2 });
    const cachedReport = await waitForExperiment(w.client, cached.experimentId);
    if (!cachedReport.cacheHits) throw new Error('expected the repeated experiment to be answered from the cache');
    await save(w.client, 'evaluation-batch-cached', evaluationWorkflowId(cached.workflowId, 'e-seed-validation'));

    const toCancel = await startExperiment(deps, weatherRequest(`${evaluatorQueue}-slow`, stamp, { maxIterations: 3 }, 44));
    for (let i = 0; ; i++) {
      const progress = await w.client.workflow.getHandle(toCancel.workflowId).query<{ phase: string; candidateCount: number }>('progress');
      if (progress.candidateCount > 0 || i > 300) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const cancelled = await cancelExperiment(w.client, toCancel.experimentId);
    if (cancelled?.status !== 'cancelled') throw new Error(`expected a cancelled experiment, got ${JSON.stringify(cancelled)}`);
    await save(w.client, 'experiment-cancelled', toCancel.workflowId);
    await resumeExperiment(deps, toCancel.experimentId);
    const resumed = await waitForExperiment(w.client, toCancel.experimentId);
    if (resumed.resumes !== 1) throw new Error(`expected a resumed experiment, got ${JSON.stringify(resumed)}`);
    const resumedRuns = await runChain(w.client, toCancel.workflowId);
    await save(w.client, 'experiment-resumed', toCancel.workflowId, resumedRuns[resumedRuns.length - 1]);
  } finally {
    for (const e of evaluators) {
      e.worker.shutdown();
      await e.running;
    }
    await connection.close();
    await w.stop();
  }
}

runToExit(main, (e) => `record-histories: ${(e as Error).stack ?? e}`);
