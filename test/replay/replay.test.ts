import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleOption, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { quietRuntime, workflowBundle } from '../../workers/in-process';
import { activityResults, activitySteps, childWorkflowIds } from '../support/history';
import { readHistories, type RecordedHistory } from './history-files';

/**
 * Safe deploys: every recorded history (test/replay/histories, re-recorded with
 * `npm run record-histories`) must replay on the current workflow code. A change that
 * breaks one breaks running workflows (approvals wait for days): guard it with patched()
 * (docs/versioning.md).
 */
const HISTORIES = readHistories(join(__dirname, 'histories'));
/** Histories of executions that a retired patch no longer serves (docs/versioning.md, "Retired patches"). */
const RETIRED = readHistories(join(__dirname, 'retired'));
const EXPECTED = [
  'approval-approved-before-alarms',
  'approval-approved',
  'approval-waiting',
  'evaluation-batch-cached',
  'evaluation-batch-v2',
  'evaluation-batch',
  'experiment-cancelled',
  'experiment-continued-as-new',
  'experiment-last-run',
  'experiment-resumed',
  'experiment-time-limit',
  'experiment-v2-first-run',
  'experiment-v2-last-run',
  'learning-job-held',
  'learning-job-publishing-planned-apart',
  'learning-job-publishing',
  'rollback-before-alarms',
  'rollback',
  'scope-index',
  'scope-usage',
  'session',
];

async function replay(bundle: WorkflowBundleOption, names?: string[], histories = HISTORIES): Promise<{ name: string; error?: Error }[]> {
  const chosen = histories.filter((h) => !names || names.includes(h.name));
  const out: { name: string; error?: Error }[] = [];
  // One replay per history: the same workflow id appears in several (the runs of one experiment).
  for (const h of chosen) {
    for await (const r of Worker.runReplayHistories({ workflowBundle: bundle, replayName: `replay-${h.name}` }, [{ workflowId: h.workflowId, history: h.history }])) {
      out.push({ name: h.name, ...(r.error ? { error: r.error as Error } : {}) });
    }
  }
  return out;
}

function variant(name: string): Promise<WorkflowBundleWithSourceMap> {
  quietRuntime();
  return bundleWorkflowCode({ workflowsPath: join(__dirname, 'variants', name, 'index.ts'), logger: new DefaultLogger('WARN') });
}

describe('replay of recorded histories', () => {
  it('covers every workflow type: session, learning job, scope index, scope usage, approval waiting and decided, rollback, experiment runs (before and on searchVersion 2), its time-limit failure, cancellation and resume', () => {
    expect(HISTORIES.map((h) => h.name)).toEqual(EXPECTED);
    const types = new Set(HISTORIES.map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    expect([...types].sort()).toEqual([
      'approvalWorkflow',
      'evaluationBatchWorkflow',
      'experimentWorkflow',
      'learningJobWorkflow',
      'rollbackWorkflow',
      'scopeIndexWorkflow',
      'scopeUsageWorkflow',
      'sessionWorkflow',
    ]);
    const lastEvent = (name: string) => HISTORIES.find((h) => h.name === name)!.history.events!.at(-1)!;
    expect(lastEvent('experiment-continued-as-new').workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
  });

  it('every history replays on the current workflow code', async () => {
    const results = await replay(await workflowBundle());
    expect(results.map((r) => r.name).sort()).toEqual([...EXPECTED].sort());
    expect(results.filter((r) => r.error).map((r) => `${r.name}: ${r.error!.message}`)).toEqual([]);
  });

  it('retired branches: the histories they served no longer replay (why an upgrade lets those executions finish first); removed patches are in no current history, replay-only ones in the runs recorded while they were patches', async () => {
    const patchIds = (h: RecordedHistory) =>
      h.history
        .events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => (JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!).toString()) as { id: string }).id);
    // Removed outright: no current history holds their markers.
    const removedIds = ['local-storage-steps', 'job-leaves-index-wait-to-client', 'local-index-bursts'];
    for (const h of HISTORIES)
      expect(
        patchIds(h).filter((id) => removedIds.includes(id)),
        h.name,
      ).toEqual([]);
    // Retired to a replay-only deprecatePatch: the runs recorded while they were patches hold their markers and replay (above).
    const replayOnly = (name: string) => patchIds(HISTORIES.find((h) => h.name === name)!);
    expect(replayOnly('learning-job-publishing')).toEqual(['decided-work-waits-out-outages']);
    expect(replayOnly('learning-job-held')).toEqual(['decided-work-waits-out-outages']);
    expect(replayOnly('scope-index')).toEqual(expect.arrayContaining(['scope-index-reconcile-alarm', 'bounded-local-index-bursts']));
    expect(replayOnly('scope-usage')).toEqual(['usage-idle-alarm', 'usage-bursts-wait-out-outages']);

    expect(RETIRED.map((h) => h.name)).toEqual([
      'learning-job-before-local-steps',
      'learning-job-held-planned-apart',
      'learning-job-patch-markers',
      'learning-job-published',
      'learning-job',
      'scope-index-before-alarms',
      'scope-index-before-local-bursts',
    ]);
    const named = (name: string) => RETIRED.find((h) => h.name === name)!;
    expect(patchIds(named('learning-job-patch-markers'))).toEqual(['local-storage-steps', 'job-leaves-index-wait-to-client']);
    // Prepared before mergedWrites: a step for each write, ending with its own outcome step.
    for (const older of ['learning-job', 'learning-job-published']) expect(activitySteps(named(older).history).at(-1)).toBe('local:recordJobOutcome');
    // Before decided-work-waits-out-outages: the revision recorded by a local step, no marker.
    expect(activitySteps(named('learning-job-held-planned-apart').history)).toEqual(['local:prepareReview', 'reviewSession', 'advanceCursorAndPlan', 'local:recordRevision']);
    expect(patchIds(named('learning-job-held-planned-apart'))).toEqual([]);
    // Before scope-index-reconcile-alarm: its wait was a timer cancelled at each burst.
    expect(patchIds(named('scope-index-before-alarms'))).not.toContain('scope-index-reconcile-alarm');
    const results = await replay(await workflowBundle(), undefined, RETIRED);
    expect(results.map((r) => `${r.name}: ${r.error?.name}`)).toEqual(RETIRED.map((h) => `${h.name}: DeterminismViolationError`));
  });

  it('learning jobs record the revision with its publication and the outcome with their last write', () => {
    const named = (name: string) => HISTORIES.find((h) => h.name === name)!.history;
    // Recorded before the review step planned the job: a planning step of their own.
    expect(activitySteps(named('learning-job-publishing-planned-apart'))).toEqual(['local:prepareReview', 'reviewSession', 'advanceCursorAndPlan', 'recordAndPublishRevision']);
    // On this code: the review step advances the cursor and plans.
    expect(activitySteps(named('learning-job-publishing'))).toEqual(['local:prepareReview', 'reviewSession', 'recordAndPublishRevision']);
    expect(activitySteps(named('learning-job-held'))).toEqual(['local:prepareReview', 'reviewSession', 'recordRevision']);
    // Both replay: 'every history replays on the current workflow code' above.
  });

  it("GEPA searchVersion 2, keyed on prepareExperiment's answer: experiments prepared with it run the cache, merge, selection, cancellation and resume steps; experiments recorded before keep theirs; all replay", () => {
    const named = (name: string) => HISTORIES.find((h) => h.name === name)!.history;
    const batchInput = (name: string) => named(name).events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!;
    const decoded = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
    expect(activityResults(named('experiment-v2-first-run'), 'prepareExperiment')).toEqual([expect.objectContaining({ searchVersion: 2 })]);
    expect(activityResults(named('experiment-continued-as-new'), 'prepareExperiment')[0]).not.toHaveProperty('searchVersion');
    // Batches of version 2 describe the evaluator and read their record and the cache first; older batches load their cases.
    expect(activitySteps(named('evaluation-batch-v2'))).toEqual(['describeEvaluator', 'local:prepareEvaluationBatch', 'evaluateCandidate', 'local:recordExperimentEvaluation']);
    expect(activitySteps(named('evaluation-batch-cached'))).toEqual(['describeEvaluator', 'local:prepareEvaluationBatch', 'local:recordExperimentEvaluation']);
    expect(activitySteps(named('evaluation-batch'))).toEqual(['local:loadExperimentCases', 'evaluateCandidate', 'local:recordExperimentEvaluation']);
    expect(decoded(batchInput('evaluation-batch-v2'))).toHaveProperty('cache');
    expect(decoded(batchInput('evaluation-batch'))).not.toHaveProperty('cache');
    // The last run merges and selects on several seeds before the Holdout.
    const children = childWorkflowIds(named('experiment-v2-last-run'));
    expect(children.some((id) => id.endsWith('-m1-subsample'))).toBe(true);
    expect(children.filter((id) => /\/eval\/e-select-/.test(id))).toHaveLength(2);
    // A cancelled experiment completes with its report; its resume starts from prepareResume.
    const cancelled = named('experiment-cancelled').events!.at(-1)!;
    expect(cancelled.workflowExecutionCompletedEventAttributes).toBeTruthy();
    expect(activitySteps(named('experiment-cancelled')).slice(-2)).toEqual(['recordExperimentProgress', 'recordExperimentResult']);
    expect(activitySteps(named('experiment-resumed'))[0]).toBe('prepareResume');
    // All replay: 'every history replays on the current workflow code' above.
  });

  it('versioning: an approval changed with patched() still replays the approvals recorded before the change; the same change unguarded does not', async () => {
    const approvals = ['approval-waiting', 'approval-approved'];
    const patched = await replay(await variant('approval-patched'), approvals);
    expect(patched.filter((r) => r.error).map((r) => `${r.name}: ${r.error!.message}`)).toEqual([]);
    expect(patched).toHaveLength(2);

    const unguarded = await replay(await variant('approval-unpatched'), ['approval-approved']);
    expect(unguarded[0]!.error?.name).toBe('DeterminismViolationError');
  });
});
