import { WorkflowUpdateFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientScopeRecorder, type RecordScope } from '../../activities/usage';
import { cohortOf, DEFAULT_ROLLOUT_SETTINGS, type OutcomeStatus, type RolloutSettings } from '../../core';
import { approvalWorkflowId, rolloutWorkflowId } from '../../core/workflow-ids';
import { abortRolloutUpdate, approvalWorkflow, decideUpdate, promoteRolloutUpdate, rolloutStatusQuery, type RolloutResult } from '../../workflows';
import { uniqueName } from '../support/infra';
import { sampleSpec, startTimeSkipping, storeHeldRevision, type TimeSkippingHarness } from '../support/time-skipping';

const HOUR = 3_600_000;
/**
 * Every update publishes as a canary at 50 %, may step up to 75 %, then 100 %; decisions need
 * 20 judged sessions per cohort (and a step 20 more candidate sessions); a step up needs the
 * candidate shown no more than 20 points worse; a look every hour, for at most 3 days.
 */
const ROLLOUT: RolloutSettings = {
  ...DEFAULT_ROLLOUT_SETTINGS,
  steps: [0.5, 0.75],
  minSamplePerCohort: 20,
  nonInferiorityMargin: 0.2,
  checkIntervalMs: HOUR,
  maxDurationMs: 72 * HOUR,
  onExpiry: 'rollback',
};

let h: TimeSkippingHarness;
let recordScope: RecordScope;

beforeAll(async () => {
  h = await startTimeSkipping((c) => ({ ...c, governance: { ...c.governance, canary: { policy: 'all', rollout: ROLLOUT } } }));
  recordScope = clientScopeRecorder(h.env.client, h.taskQueue);
});
afterAll(async () => h?.close());

/** v1 published (a create: never a canary), then an update v2 approved: published as a canary over v1. */
async function canaryOverStable() {
  const name = uniqueName('weather-report');
  const app = uniqueName('app');
  const v1 = await storeHeldRevision(h.store, { app, name });
  await approve(v1.ref.revisionId, v1.ref);
  const v2 = await storeHeldRevision(h.store, { app, name, action: 'update', parentId: v1.ref.revisionId, spec: { ...sampleSpec(name), pitfalls: ['Say Celsius.'] } });
  await approve(v2.ref.revisionId, v2.ref);
  const { scopeKey, skillId } = v1.ref;
  const pointer = (await h.store.readActive(scopeKey, skillId))!.pointer;
  expect(pointer).toMatchObject({ revisionId: v1.ref.revisionId, deleted: false, canary: { revisionId: v2.ref.revisionId, fraction: 0.5 } });
  // Sessions are attributed to cohorts by the scope index's canary (what the agents' repositories resolve).
  await vi.waitFor(async () => expect((await indexEntry(scopeKey))?.canary).toMatchObject({ revisionId: v2.ref.revisionId, fraction: 0.5 }), {
    timeout: 30_000,
    interval: 200,
  });
  return {
    scopeKey,
    skillId,
    stable: v1.ref.revisionId,
    candidate: v2.ref.revisionId,
    handle: h.env.client.workflow.getHandle<() => Promise<RolloutResult>>(rolloutWorkflowId(v2.ref.revisionId)),
  };
}

async function indexEntry(scopeKey: string) {
  const read = await h.store.readScopeIndex(scopeKey);
  return read && 'index' in read ? read.index.skills[0] : undefined;
}

async function approve(revisionId: string, ref: { scopeKey: string; skillId: string; revisionId: string }) {
  await h.run(async () => {
    const handle = await h.env.client.workflow.start(approvalWorkflow, { taskQueue: h.taskQueue, workflowId: approvalWorkflowId(revisionId), args: [{ revision: ref }] });
    await handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'alice' }] });
    return handle.result();
  });
}

/**
 * A simulated workload: sessions of the scope with known outcomes, through the real usage
 * pipeline (the scope usage workflow counts them per cohort). Each cohort gets `perCohort`
 * sessions; a candidate-cohort session succeeds with probability `candidateRate` (every
 * k-th), a stable one with `stableRate`. `fraction`: the canary's share the scope index
 * shows now (what the usage workflow puts a session's outcome under). Sessions are sent,
 * not yet counted: see countedCohorts.
 */
async function sessions(c: { scopeKey: string; candidate: string }, from: number, perCohort: number, candidateRate: number, stableRate: number, fraction = ROLLOUT.steps[0]!) {
  const made = { candidate: 0, stable: 0 };
  for (let i = from; made.candidate < perCohort || made.stable < perCohort; i++) {
    const sessionId = `${c.candidate}-session-${i}`;
    const cohort = cohortOf(sessionId, { revisionId: c.candidate, fraction });
    if (made[cohort] >= perCohort) continue;
    const k = made[cohort]++;
    const rate = cohort === 'candidate' ? candidateRate : stableRate;
    // Deterministic: the first round(rate × 10) of every ten sessions succeed.
    const outcome: OutcomeStatus = k % 10 < Math.round(rate * 10) ? 'success' : 'fail';
    await recordScope(c.scopeKey, [{ kind: 'session', usage: { jobId: `job-${sessionId}`, sessionId, outcome, loads: [] } }]);
  }
  return made;
}

async function countedCohorts(scopeKey: string, skillId: string, atLeast: number) {
  await vi.waitFor(
    async () => {
      const tally = (await h.store.readUsage(scopeKey))?.summary.skills.find((s) => s.skillId === skillId)?.canary;
      expect(tally?.candidate.n ?? 0).toBeGreaterThanOrEqual(atLeast);
      expect(tally?.stable.n ?? 0).toBeGreaterThanOrEqual(atLeast);
    },
    { timeout: 60_000, interval: 250 },
  );
}

async function auditOf(scopeKey: string, skillId: string) {
  return (await h.store.listAudit(scopeKey, skillId)).filter((e) => e.action.startsWith('canary_')).map((e) => [e.action, e.actor, e.revisionId]);
}

describe('staged rollout on the time-skipping server (real S3, real usage attribution)', () => {
  it('rolls back a canary that lowers the success rate by itself, never before the minimum sample; audited; the candidate is archived and remembered as rejected', async () => {
    const c = await canaryOverStable();
    // Fewer than the minimum sample: hours of looks decide nothing.
    await sessions(c, 0, 12, 0.2, 0.9);
    await countedCohorts(c.scopeKey, c.skillId, 12);
    await h.run(() => h.env.sleep(5 * HOUR));
    const waiting = await c.handle.query(rolloutStatusQuery);
    expect(waiting.state).toBe('running');
    expect(waiting.checks).toBeGreaterThanOrEqual(2);
    expect(waiting.last).toMatchObject({ decision: 'wait', candidate: { judged: 12 }, stable: { judged: 12 } });
    expect(waiting.last!.reason).toMatch(/minimum sample not reached/);
    expect((await h.store.readActive(c.scopeKey, c.skillId))!.pointer).toMatchObject({ revisionId: c.stable, canary: { revisionId: c.candidate } });

    await sessions(c, 0, 30, 0.2, 0.9); // the same first 12 again (counted once) and 18 more per cohort
    await countedCohorts(c.scopeKey, c.skillId, 30);
    const result = await h.run(() => c.handle.result());
    expect(result).toMatchObject({ candidateRevisionId: c.candidate, outcome: 'rolled_back', decidedBy: 'rollout' });
    expect(result.reason).toMatch(/lowers the success rate/);

    const pointer = (await h.store.readActive(c.scopeKey, c.skillId))!.pointer;
    expect(pointer).toMatchObject({ revisionId: c.stable, deleted: false });
    expect(pointer).not.toHaveProperty('canary');
    const revisions = await h.store.listRevisions(c.scopeKey, c.skillId);
    expect(Object.fromEntries(revisions.map((r) => [r.id, r.status]))).toEqual({ [c.stable]: 'active', [c.candidate]: 'archived' });
    expect(await auditOf(c.scopeKey, c.skillId)).toEqual([
      ['canary_start', 'alice', c.candidate],
      ['canary_rollback', 'rollout', c.candidate],
    ]);
    // The next review of this skill sees the change taken back, and why.
    expect((await h.store.readRejections(c.scopeKey)).find((n) => n.revisionId === c.candidate)).toMatchObject({ reviewer: 'rollout' });
    await vi.waitFor(async () => expect(await indexEntry(c.scopeKey)).not.toHaveProperty('canary'), { timeout: 30_000, interval: 200 });
  });

  it('promotes a helpful canary by itself, never before the minimum sample; audited; the stable revision is archived', async () => {
    const c = await canaryOverStable();
    await sessions(c, 0, 10, 0.9, 0.3);
    await countedCohorts(c.scopeKey, c.skillId, 10);
    await h.run(() => h.env.sleep(3 * HOUR));
    expect((await c.handle.query(rolloutStatusQuery)).last).toMatchObject({ decision: 'wait' });

    await sessions(c, 0, 30, 0.9, 0.3);
    await countedCohorts(c.scopeKey, c.skillId, 30);
    const result = await h.run(() => c.handle.result());
    expect(result).toMatchObject({ candidateRevisionId: c.candidate, outcome: 'promoted', decidedBy: 'rollout' });
    expect(result.reason).toMatch(/raises the success rate/);

    const pointer = (await h.store.readActive(c.scopeKey, c.skillId))!.pointer;
    expect(pointer).toMatchObject({ revisionId: c.candidate, deleted: false });
    expect(pointer).not.toHaveProperty('canary');
    const revisions = await h.store.listRevisions(c.scopeKey, c.skillId);
    expect(Object.fromEntries(revisions.map((r) => [r.id, r.status]))).toEqual({ [c.stable]: 'archived', [c.candidate]: 'active' });
    expect(await auditOf(c.scopeKey, c.skillId)).toEqual([
      ['canary_start', 'alice', c.candidate],
      ['canary_promote', 'rollout', c.candidate],
    ]);
  });

  it('steps a candidate no worse than the stable revision up to the next fraction by itself (audited, never before the minimum sample or the evidence), then promotes it from the last step once it gained the minimum sample there', async () => {
    const c = await canaryOverStable();
    const status = () => c.handle.query(rolloutStatusQuery);
    const fractionInS3 = async () => {
      const pointer = (await h.store.readActive(c.scopeKey, c.skillId))!.pointer;
      return pointer.deleted ? undefined : pointer.canary?.fraction;
    };

    // Fewer than the minimum sample: hours of looks, no step.
    await sessions(c, 0, 12, 0.9, 0.9);
    await countedCohorts(c.scopeKey, c.skillId, 12);
    await h.run(() => h.env.sleep(3 * HOUR));
    expect(await status()).toMatchObject({ state: 'running', stepIndex: 0, fraction: 0.5, last: { decision: 'wait', candidate: { judged: 12 }, stable: { judged: 12 } } });
    expect((await status()).last!.reason).toMatch(/minimum sample not reached/);
    // The minimum sample, but 36 of 40 against 36 of 40 does not yet show the candidate within 20 points ([-21.6 %, 21.6 %]): no step.
    await sessions(c, 0, 40, 0.9, 0.9);
    await countedCohorts(c.scopeKey, c.skillId, 40);
    await h.run(() => h.env.sleep(3 * HOUR));
    const undecided = await status();
    expect(undecided).toMatchObject({ state: 'running', stepIndex: 0, fraction: 0.5, last: { decision: 'wait', candidate: { judged: 40, success: 36 } } });
    expect(undecided.last!.reason).toMatch(/^undecided/);
    expect(await fractionInS3()).toBe(0.5);
    expect(await auditOf(c.scopeKey, c.skillId)).toEqual([['canary_start', 'alice', c.candidate]]);

    // 54 of 60 against 54 of 60: within 20 points ([-17.1 %, 17.1 %]), neither better nor worse: one step up, to 75 %.
    await sessions(c, 0, 60, 0.9, 0.9);
    await countedCohorts(c.scopeKey, c.skillId, 60);
    await h.run(() => h.env.sleep(2 * HOUR));
    // (Looks after the step find nothing new at this step: they wait.)
    expect(await status()).toMatchObject({ state: 'running', stepIndex: 1, fraction: 0.75, last: { candidate: { judged: 60 }, stable: { judged: 60 } } });
    expect((await h.store.readActive(c.scopeKey, c.skillId))!.pointer).toMatchObject({ revisionId: c.stable, canary: { revisionId: c.candidate, fraction: 0.75 } });
    expect(await auditOf(c.scopeKey, c.skillId)).toEqual([
      ['canary_start', 'alice', c.candidate],
      ['canary_step', 'rollout', c.candidate],
    ]);
    const stepEvent = (await h.store.listAudit(c.scopeKey, c.skillId)).find((e) => e.action === 'canary_step')!;
    expect(stepEvent.reason).toMatch(/no worse than 20\.0 %: .*\[-17\.1 %, 17\.1 %\]; stepping up to 75\.0 %/);
    // The agents' repositories resolve the new share from the scope index.
    await vi.waitFor(async () => expect((await indexEntry(c.scopeKey))?.canary).toMatchObject({ revisionId: c.candidate, fraction: 0.75 }), { timeout: 30_000, interval: 200 });

    // At 75 %: the candidate has gained 10 judged sessions at this step, fewer than the minimum: nothing moves.
    await sessions(c, 10_000, 10, 0.9, 0.9, 0.75);
    await countedCohorts(c.scopeKey, c.skillId, 70);
    await h.run(() => h.env.sleep(3 * HOUR));
    const gaining = await status();
    expect(gaining).toMatchObject({ state: 'running', stepIndex: 1, fraction: 0.75, last: { decision: 'wait', candidate: { judged: 70 }, stable: { judged: 70 } } });
    expect(gaining.last!.reason).toMatch(/^undecided/);
    expect(await auditOf(c.scopeKey, c.skillId)).toHaveLength(2);

    // 25 gained at the last step, still within 20 points: promoted by itself.
    await sessions(c, 10_000, 25, 0.9, 0.9, 0.75);
    await countedCohorts(c.scopeKey, c.skillId, 85);
    const result = await h.run(() => c.handle.result());
    expect(result).toMatchObject({ candidateRevisionId: c.candidate, outcome: 'promoted', decidedBy: 'rollout' });
    expect(result.reason).toMatch(/no worse than 20\.0 % at the last step/);
    const done = await status();
    expect(done.last).toMatchObject({ decision: 'promote', candidate: { judged: 85 }, stable: { judged: 85 } });
    const pointer = (await h.store.readActive(c.scopeKey, c.skillId))!.pointer;
    expect(pointer).toMatchObject({ revisionId: c.candidate, deleted: false });
    expect(pointer).not.toHaveProperty('canary');
    const revisions = await h.store.listRevisions(c.scopeKey, c.skillId);
    expect(Object.fromEntries(revisions.map((r) => [r.id, r.status]))).toEqual({ [c.stable]: 'archived', [c.candidate]: 'active' });
    expect(await auditOf(c.scopeKey, c.skillId)).toEqual([
      ['canary_start', 'alice', c.candidate],
      ['canary_step', 'rollout', c.candidate],
      ['canary_promote', 'rollout', c.candidate],
    ]);
  });

  it('an approver aborts by update (validated), and a canary nobody judges is rolled back at its maximum duration', async () => {
    const aborted = await canaryOverStable();
    await expect(aborted.handle.executeUpdate(abortRolloutUpdate, { args: [{ reviewer: ' ' }] })).rejects.toThrow(WorkflowUpdateFailedError);
    const status = await h.run(() => aborted.handle.executeUpdate(abortRolloutUpdate, { args: [{ reviewer: 'bob', comment: 'users complain' }] }));
    expect(status).toMatchObject({ state: 'rolled_back', result: { outcome: 'rolled_back', decidedBy: 'bob', reason: 'users complain' } });
    expect(await h.run(() => aborted.handle.result())).toMatchObject({ outcome: 'rolled_back', decidedBy: 'bob' });
    expect((await h.store.readActive(aborted.scopeKey, aborted.skillId))!.pointer).toMatchObject({ revisionId: aborted.stable });
    expect(await auditOf(aborted.scopeKey, aborted.skillId)).toEqual([
      ['canary_start', 'alice', aborted.candidate],
      ['canary_rollback', 'bob', aborted.candidate],
    ]);

    const idle = await canaryOverStable();
    const wallStart = Date.now();
    const result = await h.run(() => idle.handle.result());
    expect(Date.now() - wallStart).toBeLessThan(120_000); // 72 simulated hours, skipped
    expect(result).toMatchObject({ outcome: 'rolled_back', decidedBy: 'rollout' });
    expect(result.reason).toMatch(/maximum duration/);
    const done = await idle.handle.query(rolloutStatusQuery);
    expect(done.checks).toBeGreaterThanOrEqual(70);
    expect(Date.parse(result.at) - Date.parse(done.startedAt)).toBeGreaterThanOrEqual(72 * HOUR);
    // A promote after the end is refused with the rollout's outcome.
    await expect(idle.handle.executeUpdate(promoteRolloutUpdate, { args: [{ reviewer: 'carol' }] })).rejects.toThrow();
  });
});
