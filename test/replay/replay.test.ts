import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Worker, type WorkflowBundleOption, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { quietRuntime, workflowBundle } from '../../workers/in-process';
import { activityResults, activitySteps, childWorkflowIds, localActivityResults } from '../support/history';
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
  'learning-job-patch-markers',
  'learning-job-published',
  'learning-job-publishing',
  'learning-job',
  'rollback',
  'scope-index-before-local-bursts',
  'scope-index',
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
  it('covers every workflow type: session, learning job, scope index, approval waiting and decided, rollback, experiment runs (before and on searchVersion 2), its time-limit failure, cancellation and resume', () => {
    expect(HISTORIES.map((h) => h.name)).toEqual(EXPECTED);
    const types = new Set(HISTORIES.map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    expect([...types].sort()).toEqual([
      'approvalWorkflow',
      'evaluationBatchWorkflow',
      'experimentWorkflow',
      'learningJobWorkflow',
      'rollbackWorkflow',
      'scopeIndexWorkflow',
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

  it('retired patches: a job recorded with their markers replays, a job on the current code records none, and a job started before them no longer replays (why an upgrade lets those finish first)', async () => {
    const patchMarkers = (h: RecordedHistory) =>
      h.history
        .events!.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => JSON.parse(Buffer.from(e.markerRecordedEventAttributes!.details!['patch-data']!.payloads![0]!.data!).toString()) as { id: string; deprecated: boolean });
    const named = (name: string) => HISTORIES.find((h) => h.name === name)!;
    expect(patchMarkers(named('learning-job-patch-markers'))).toEqual(['local-storage-steps', 'job-leaves-index-wait-to-client'].map((id) => ({ id, deprecated: false })));
    expect(patchMarkers(named('learning-job'))).toEqual([]);
    // Both replay: 'every history replays on the current workflow code' above.

    expect(RETIRED.map((h) => h.name)).toEqual(['learning-job-before-local-steps']);
    const [retired] = await replay(await workflowBundle(), undefined, RETIRED);
    expect(retired!.error?.name).toBe('DeterminismViolationError');
  });

  it("recordRevision's answer: jobs recorded before the ack hold the stored revision in its marker, later ones the ack; both replay", () => {
    const named = (name: string) => HISTORIES.find((h) => h.name === name)!.history;
    const [before] = localActivityResults(named('learning-job'), 'recordRevision') as { id?: string; status?: string }[];
    expect(before).toMatchObject({ status: 'pending_approval' });
    expect(before!.id).toMatch(/^rev-/);
    expect(localActivityResults(named('learning-job-published'), 'recordRevision')).toEqual([{ asWritten: true }]);
    expect(activitySteps(named('learning-job-published'))).toEqual([
      'local:prepareReview',
      'reviewSession',
      'advanceCursorAndPlan',
      'local:recordRevision',
      'publishRevision',
      'local:recordJobOutcome',
    ]);
    // Both replay: 'every history replays on the current workflow code' above.
  });

  it("merged writes, keyed on prepareReview's answer: jobs prepared with it record the revision with its publication and the outcome with their last write; jobs recorded before take a step for each; both replay", () => {
    const named = (name: string) => HISTORIES.find((h) => h.name === name)!.history;
    const prepared = (name: string) => localActivityResults(named(name), 'prepareReview') as { mergedWrites?: true }[];
    expect(prepared('learning-job-publishing')).toEqual([expect.objectContaining({ mergedWrites: true })]);
    expect(activitySteps(named('learning-job-publishing'))).toEqual(['local:prepareReview', 'reviewSession', 'advanceCursorAndPlan', 'recordAndPublishRevision']);
    expect(prepared('learning-job-held')).toEqual([expect.objectContaining({ mergedWrites: true })]);
    expect(activitySteps(named('learning-job-held'))).toEqual(['local:prepareReview', 'reviewSession', 'advanceCursorAndPlan', 'local:recordRevision']);
    for (const older of ['learning-job', 'learning-job-published']) {
      expect(prepared(older)[0]).not.toHaveProperty('mergedWrites');
      expect(activitySteps(named(older)).at(-1)).toBe('local:recordJobOutcome');
    }
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
