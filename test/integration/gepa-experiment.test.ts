import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkflowFailedError } from '@temporalio/client';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { holdoutCalls, revisionIdFor, type ExperimentRequestInput } from '../../core';
import { WEATHER_SEED_SKILL } from '../../workers/evaluator/simulated-weather';
import { getExperiment, readExperimentRecords, runExperiment, startExperiment, waitForExperiment } from '../../client/optimization';
import { decideRevision } from '../../client/approvals';
import { InputError, StateError } from '../../core/errors';
import { experimentWorkflow, type ExperimentReport } from '../../workflows';
import { submissionJobId } from '../../core/gepa/ids';
import { STORED_TEXT_MAX_BYTES } from '../../activities/gepa/records';
import { utf8ByteLength } from '../../core';
import { uniqueName } from '../support/infra';
import { publishNewRevision, seedManagedSkill, startGepaHarness, weatherDataset, weatherRequest, type GepaHarness } from '../support/gepa';

let h: GepaHarness;
beforeAll(async () => {
  h = await startGepaHarness();
});
afterAll(async () => {
  await h?.stop();
});

const submissionRevisionId = (experimentId: string) => revisionIdFor(submissionJobId(experimentId), 0);

/** The trajectory: everything about the search except names and times. */
function trajectory(r: ExperimentReport) {
  const { experimentId: _e, workflowId: _w, startedAt: _s, finishedAt: _f, runs: _r, ...rest } = r;
  return rest;
}

describe('GEPA experiment workflow (real dev server, S3, model server, example evaluator)', () => {
  it('improves a weak seed, confirms it on holdout, and submits a governed revision that waits for approval', async () => {
    const skill = await seedManagedSkill(h.store);
    const dataset = weatherDataset();
    const report = await runExperiment(h.deps, weatherRequest(h.evaluatorQueue, dataset, { scope: skill.scope, skillId: skill.skillId, parentRevisionId: 'active', submit: true }));

    expect(report.status).toBe('completed');
    expect(report.stopReason).toBe('max_iterations');
    expect(report.bestValidationMean!).toBeGreaterThan(report.seedValidationMean! + 0.4);
    expect(report.promotionEligible).toBe(true);
    expect(report.promotionReason).toMatch(/^holdout requirements satisfied/);
    expect(report.holdout!.delta).toBeGreaterThan(0.4);
    expect(report.parentRevisionId).toBe(skill.revisionId); // 'active' resolved at run start

    const revisionId = submissionRevisionId(report.experimentId);
    expect(report.submission).toMatchObject({ status: 'submitted', revisionId, revisionStatus: 'pending_approval', approvalWorkflowId: approvalWorkflowId(revisionId) });
    expect(report.submittedRevisionId).toBe(revisionId);
    const revision = (await h.store.readRevision(skill.scopeKey, skill.skillId, revisionId))!;
    expect(revision).toMatchObject({ status: 'pending_approval', action: 'update', source: 'gepa', parentId: skill.revisionId });
    expect(revision.spec!.name).toBe(skill.spec.name);
    expect(revision.spec!.steps).toEqual(report.bestSpec!.steps);
    expect(revision.evidence).toMatchObject({
      experimentId: report.experimentId,
      datasetId: dataset.id,
      datasetVersion: dataset.version,
      baselineHoldoutScore: report.holdout!.seedMean,
      candidateHoldoutScore: report.holdout!.winnerMean,
      delta: report.holdout!.delta,
      caseCount: 10,
    });
    expect(revision.evidence!.objectives.join('\n')).toMatch(/coverage: 0\.\d+ → [01]\.\d+/);
    expect(revision.gates.every((g) => g.ran && g.passed)).toBe(true);
    expect(revision.human?.reasons).toEqual(['externally evaluated revisions require approval']);
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(skill.revisionId);
    const approval = await h.main.client.workflow.getHandle(approvalWorkflowId(revisionId)).describe();
    expect(approval.status.name).toBe('RUNNING');

    // The experiment record: experiment.json pins the dataset, every evaluation batch refers to case ids.
    const records = await readExperimentRecords(h.store, report.experimentId);
    expect(records.experiment).toMatchObject({ experimentId: report.experimentId, dataset: { id: dataset.id, version: dataset.version }, parentRevisionId: skill.revisionId });
    expect(records.experiment!.dataset.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(records.log.map((l) => l.iteration)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const entry of records.log) expect(entry.reason.length).toBeGreaterThan(0);
    expect(records.evaluations.reduce((n, e) => n + e.caseIds.length, 0)).toBe(report.metricCallsUsed);
    for (const e of records.evaluations) {
      expect(e.evaluations.map((x) => x.caseId)).toEqual(e.caseIds);
      for (const x of e.evaluations) for (const t of [x.output, x.feedback, x.trace]) expect(utf8ByteLength(t ?? '')).toBeLessThanOrEqual(STORED_TEXT_MAX_BYTES);
    }
    expect(
      records.evaluations
        .filter((e) => e.split === 'holdout')
        .map((e) => e.phase)
        .sort(),
    ).toEqual(['holdout-seed', 'holdout-winner']);

    // The approver publishes it: the active revision was still the parent.
    const decided = await decideRevision({ client: h.main.client, store: h.store }, revisionId, { decision: 'approve', reviewer: 'gepa-test' });
    expect(decided).toMatchObject({ decision: 'approved', finalStatus: 'active' });
    const active = (await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer;
    expect(active.revisionId).toBe(revisionId);
  });

  it('is deterministic: the same request and seed give the same trajectory, across continue-as-new too', async () => {
    // Without the evaluation cache: the two runs go side by side, and hits from the other would spend less (its own test covers that).
    const request = weatherRequest(h.evaluatorQueue, weatherDataset({ seed: 11 }), { options: { maxIterations: 5, randomSeed: 3, evaluationCache: { enabled: false } } });
    const [a, b] = await Promise.all([runExperiment(h.deps, request, { iterationsPerRun: 1 }), runExperiment(h.deps, request, { iterationsPerRun: 50 })]);
    expect(a.runs).toBeGreaterThan(1); // continued as new between iterations
    expect(b.runs).toBe(1);
    expect(trajectory(a)).toEqual(trajectory(b));
    const [ra, rb] = await Promise.all([readExperimentRecords(h.store, a.experimentId), readExperimentRecords(h.store, b.experimentId)]);
    expect(ra.log).toEqual(rb.log);
    expect(ra.log).toHaveLength(5);
    const batches = (r: typeof ra) =>
      r.evaluations.map((e) => ({ id: e.recordId, candidate: e.candidateId, seed: e.seed, cases: e.caseIds, scores: e.evaluations.map((x) => x.score) }));
    expect(batches(ra)).toEqual(batches(rb));
    expect(new Set(ra.log.map((l) => l.pairedSeed)).size).toBe(5); // a fresh paired seed per iteration
  });

  it('accounts every metric call, keeps the holdout reserve untouched during search, and stops on the budget', async () => {
    // |V| = 10 for the seed, reserve 2 × |H| = 20, an iteration costs at most 2 × 3 + 10 = 16; three fit (the pre-flight minimum).
    const max = 10 + 20 + 16 * 3 + 9;
    // Cache hits spend like evaluations here, so every case in the records is one metric call (the cache has its own test).
    const options = { maxIterations: 50, maxMetricCalls: max, evaluationCache: { enabled: true, hitsSpendBudget: true } };
    const report = await runExperiment(h.deps, weatherRequest(h.evaluatorQueue, weatherDataset(), { options }));
    expect(report.status).toBe('completed');
    expect(report.stopReason).toBe('metric_budget');
    expect(report.iterations).toBeLessThan(50);
    // The pre-flight promised three worst-case proposals; rejected ones cost less, so at least three ran.
    expect(report.proposalsPossible).toBe(3);
    expect(report.proposals).toBe(report.iterations);
    expect(report.proposals).toBeGreaterThanOrEqual(3);
    expect(report.metricCallsUsed).toBeLessThanOrEqual(max);
    const { evaluations } = await readExperimentRecords(h.store, report.experimentId);
    expect(evaluations.reduce((n, e) => n + e.caseIds.length, 0)).toBe(report.metricCallsUsed);
    const winnerIsSeed = report.bestCandidateId === evaluations.find((e) => e.recordId === 'e-seed-validation')!.candidateId;
    const holdoutSpent = evaluations.filter((e) => e.split === 'holdout').reduce((n, e) => n + e.caseIds.length, 0);
    expect(holdoutSpent).toBe(holdoutCalls(10, winnerIsSeed));
    const searchSpent = report.metricCallsUsed - holdoutSpent;
    expect(searchSpent + 20).toBeLessThanOrEqual(max); // the reserve was never spent by search
    expect(searchSpent + 16 + 20).toBeGreaterThan(max); // one more iteration's worst case could not fit
  });

  it('promotion needs the minimum holdout improvement; the reason is filled without submit', async () => {
    const report = await runExperiment(h.deps, weatherRequest(h.evaluatorQueue, weatherDataset(), { options: { maxIterations: 4, minHoldoutImprovement: 0.95 } }));
    expect(report.status).toBe('completed');
    expect(report.holdout!.delta).toBeGreaterThan(0.3);
    expect(report.holdout!.delta).toBeLessThan(0.95);
    expect(report.promotionEligible).toBe(false);
    expect(report.promotionReason).toMatch(/^holdout delta \+0\.\d{4} is below the required 0\.9500$/);
    expect(report.submission.status).toBe('not_requested');
  });

  it('a critical holdout case that regresses blocks promotion and submission, even when the mean improves', async () => {
    // An application evaluator in which adding backoff breaks one critical holdout case.
    const queue = await h.addEvaluator({ evaluator: { scoreOverrides: [{ caseId: 'weather-holdout-004', score: 0, whenSpecMatches: 'backoff' }] } });
    const skill = await seedManagedSkill(h.store);
    const report = await runExperiment(
      h.deps,
      weatherRequest(queue, weatherDataset({ criticalEvery: 4 }), { scope: skill.scope, skillId: skill.skillId, parentRevisionId: skill.revisionId, submit: true }),
    );
    expect(report.status).toBe('completed');
    expect(report.bestSpec!.steps.join(' ')).toMatch(/backoff/);
    expect(report.holdout!.delta).toBeGreaterThan(0.3);
    expect(report.holdout!.criticalRegressions).toEqual(['weather-holdout-004']);
    expect(report.promotionEligible).toBe(false);
    expect(report.promotionReason).toBe('critical holdout case regressed: weather-holdout-004');
    expect(report.submission).toEqual({ status: 'skipped', reason: 'not submitted: critical holdout case regressed: weather-holdout-004' });
    expect(await h.store.readRevision(skill.scopeKey, skill.skillId, submissionRevisionId(report.experimentId))).toBeUndefined();
  });

  it('a stale parent is rejected at submission and the active skill stays as it is', async () => {
    const skill = await seedManagedSkill(h.store);
    const started = await startExperiment(
      h.deps,
      weatherRequest(h.evaluatorQueue, weatherDataset(), {
        scope: skill.scope,
        skillId: skill.skillId,
        parentRevisionId: skill.revisionId,
        submit: true,
        options: { maxIterations: 4 },
      }),
    );
    // Someone publishes while the experiment searches (after its prepare step, which refuses a stale parent up front).
    await waitUntilSearching(started.experimentId);
    const newer = await publishNewRevision(h.store, skill);
    const before = await h.store.readActive(skill.scopeKey, skill.skillId);
    const report = await waitForExperiment(h.main.client, started.experimentId);
    expect(report.promotionEligible).toBe(true);
    expect(report.submission.status).toBe('stale_parent');
    expect(report.submission.reason).toBe(
      `stale parent: the active revision of skill ${skill.skillId} is ${newer}, but the experiment started from ${skill.revisionId}; the active skill was left unchanged`,
    );
    expect(report.submittedRevisionId).toBeUndefined();
    const after = await h.store.readActive(skill.scopeKey, skill.skillId);
    expect(after!.etag).toBe(before!.etag);
    expect(after!.pointer.revisionId).toBe(newer);
    expect(await h.store.readRevision(skill.scopeKey, skill.skillId, submissionRevisionId(report.experimentId))).toBeUndefined();
    const audit = await h.store.listAudit(skill.scopeKey, skill.skillId);
    expect(audit.filter((a) => a.action === 'stale_parent').map((a) => a.reason)).toEqual([report.submission.reason]);
  });

  it('submit with fewer than 10 cases in a split is refused: by the client, and by the workflow for a stored dataset', async () => {
    const small = weatherDataset({ feedback: 5 });
    const request = weatherRequest(h.evaluatorQueue, small, { skillId: 'weather-report', parentRevisionId: 'rev-x', submit: true });
    await expect(startExperiment(h.deps, request)).rejects.toThrow(InputError);
    await expect(startExperiment(h.deps, request)).rejects.toThrow(/submit requires at least 10 feedback cases, got 5\s+→ at dataset\.feedback/);

    // Another SDK starting the workflow directly with a reference to a stored dataset: the workflow re-checks it.
    await h.store.putDataset(small);
    const { dataset: _inline, ...rest } = request;
    const workflowId = `experiment/${uniqueName('small')}`;
    const handle = await h.main.client.workflow.start(experimentWorkflow, {
      workflowId,
      taskQueue: h.main.taskQueue,
      args: [{ request: { ...rest, datasetRef: { id: small.id, version: small.version } } }],
    });
    const failure = await handle.result().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    expect(String((failure as WorkflowFailedError).cause?.message)).toMatch(/feedback: submit requires at least 10 feedback cases, got 5/);
    const view = await getExperiment(h.deps, workflowId.slice('experiment/'.length));
    expect(view.status).toBe('failed');
    expect(view.error).toMatch(/submit requires at least 10 feedback cases, got 5/);
  });

  it('an out-of-range score from the evaluator fails the experiment with an error naming the case', async () => {
    const queue = await h.addEvaluator({ evaluator: { scoreOverrides: [{ caseId: 'weather-validation-003', score: 1.5 }] } });
    const report = await runExperiment(h.deps, weatherRequest(queue, weatherDataset()));
    expect(report.status).toBe('failed');
    expect(report.stopReason).toBe('error');
    expect(report.error).toMatch(/evaluation for case "weather-validation-003": score must be a finite number in \[0, 1\]/);
    expect(report.promotionEligible).toBe(false);
    expect(report.bestCandidateId).toBeUndefined();
  });

  it('a failure after selection (holdout) returns the partial result with the error', async () => {
    const queue = await h.addEvaluator({ evaluator: { scoreOverrides: [{ caseId: 'weather-holdout-002', score: -0.5 }] } });
    const skill = await seedManagedSkill(h.store);
    const report = await runExperiment(
      h.deps,
      weatherRequest(queue, weatherDataset(), { scope: skill.scope, skillId: skill.skillId, parentRevisionId: skill.revisionId, submit: true, options: { maxIterations: 3 } }),
    );
    expect(report.status).toBe('completed');
    expect(report.stopReason).toBe('max_iterations');
    expect(report.bestCandidateId).toBeDefined();
    expect(report.bestValidationMean!).toBeGreaterThan(report.seedValidationMean!);
    expect(report.error).toMatch(/^holdout evaluation failed: .*evaluation for case "weather-holdout-002": score must be a finite number in \[0, 1\]/);
    expect(report.promotionEligible).toBe(false);
    expect(report.promotionReason).toMatch(/^holdout evaluation failed: .*; promotion was not assessed$/);
    expect(report.submission.status).toBe('skipped');
    expect(await h.store.readRevision(skill.scopeKey, skill.skillId, submissionRevisionId(report.experimentId))).toBeUndefined();
  });

  it('a reflector that keeps answering malformed JSON costs one iteration, recorded, and the search goes on', async () => {
    const name = uniqueName('weather-malformed');
    const control = h.config.llm.baseURL.replace(/\/v1\/?$/, '');
    const res = await fetch(`${control}/_control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'malformed', count: 3, match: name }),
    });
    expect(res.ok).toBe(true);
    const request: ExperimentRequestInput = { ...weatherRequest(h.evaluatorQueue, weatherDataset(), { options: { maxIterations: 3 } }), seed: { ...WEATHER_SEED_SKILL, name } };
    const report = await runExperiment(h.deps, request);
    const { log } = await readExperimentRecords(h.store, report.experimentId);
    expect(log[0]).toMatchObject({ iteration: 0, outcome: 'invalid_reflection', accepted: false });
    expect(log[0].reason).toMatch(/^reflector failed: reflection: the model's answer is not valid JSON/);
    expect(log.slice(1).some((l) => l.accepted)).toBe(true);
    expect(report.status).toBe('completed');
  });

  it('an experiment id is used once', async () => {
    const experimentId = uniqueName('exp-once');
    const request = weatherRequest(h.evaluatorQueue, weatherDataset(), { experimentId, options: { maxIterations: 0 } });
    await runExperiment(h.deps, request);
    await expect(startExperiment(h.deps, request)).rejects.toThrow(StateError);
  });
});

async function waitUntilSearching(experimentId: string): Promise<void> {
  for (;;) {
    const view = await getExperiment(h.deps, experimentId);
    if (view.status !== 'running') throw new Error(`experiment ${experimentId} ended before its search: ${JSON.stringify(view)}`);
    if (view.progress && view.progress.phase !== 'preparing') return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
