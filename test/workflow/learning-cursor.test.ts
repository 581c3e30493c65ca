import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { cursorKey, jobOutcomeKey } from '../../storage';
import type { SessionEvent } from '../../core';
import { uniqueName } from '../support/infra';
import { injectFault, reviewerCalls } from '../support/model-stats';
import { activityResults, activitySteps } from '../support/history';
import { exampleSession } from '../support/sessions';
import { startTimeSkipping, type TimeSkippingHarness } from '../support/time-skipping';

// Cursor rules (docs/design.md invariant 6) with the real learning job, the real reviewer
// activity and its real retry policy (3 attempts, 2 s then 4 s backoff, skipped here).
let h: TimeSkippingHarness;

beforeAll(async () => {
  h = await startTimeSkipping((c) => ({ ...c, governance: { ...c.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false } }));
});
afterAll(async () => h?.close());

/** The weather session (12 events, ≥ 4 tool calls: the policy says "review") with `marker` in its first user message. */
function weatherWith(marker: string): SessionEvent[] {
  const events = exampleSession('weather-report');
  return events.map((e, i) => (i === 0 ? { ...e, content: `${e.content as string} ${marker}` } : e));
}

async function submit(events: SessionEvent[], session: { app: string; user: string; sessionId: string }) {
  const deps = { client: h.env.client, store: h.store, config: h.config };
  const started = await startLearningJob(deps, { ...session, events });
  const outcome = await h.run(() => waitForLearningJob({ client: h.env.client, store: h.store }, started.jobWorkflowId, { timeoutMs: 60_000 }));
  return { started, outcome };
}

const newSession = () => ({ app: uniqueName('app'), user: 'u1', sessionId: uniqueName('s') });

describe('review cursor under reviewer failure (time-skipping server)', () => {
  it('a reviewer that always answers malformed JSON: retried 3 times, job reviewer_failed, cursor NOT advanced', async () => {
    const session = newSession();
    const { started, outcome } = await submit(weatherWith('[[fault:malformed]]'), session);
    expect(outcome).toMatchObject({ status: 'reviewer_failed', cursorAdvanced: false, revisions: [], deltaEvents: 12 });
    expect(outcome.reason).toMatch(/review_decision: the model's answer is not valid JSON/);
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(3);
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toBeUndefined();
    expect(await h.store.listSkillIds(started.scopeKey)).toEqual([]);
  });

  it('a failed review is reviewed again in full by the next segment of the session', async () => {
    const session = newSession();
    const token = uniqueName('fail-three-times');
    const first = weatherWith(token);
    await injectFault(h.config.llm.baseURL, { mode: 'malformed', count: 3, match: token });
    const failed = await submit(first, session);
    expect(failed.outcome).toMatchObject({ status: 'reviewer_failed', cursorAdvanced: false, deltaEvents: 12 });
    expect(await h.store.readCursor(failed.started.scopeKey, session.sessionId)).toBeUndefined();

    // The session goes on (append-only); the delta still starts at the first event.
    const followup = exampleSession('weather-report-followup');
    const more = [...first, ...followup.slice(first.length)];
    expect(more.length).toBeGreaterThan(first.length);
    const reviewed = await submit(more, session);
    expect(reviewed.outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true, deltaEvents: more.length });
    expect(reviewed.outcome.revisions).toMatchObject([{ action: 'create', status: 'pending_approval', name: 'multi-city-weather-report' }]);
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(4);
    expect(await h.store.readCursor(reviewed.started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: more.length, lastReviewedAt: more.at(-1)!.timestamp });
  });

  it('a malformed answer once: retried, succeeds, cursor advanced, reviewer called exactly twice', async () => {
    const session = newSession();
    const events = weatherWith(`[[fault:once:malformed:${uniqueName('key')}]]`);
    const { started, outcome } = await submit(events, session);
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true, deltaEvents: 12 });
    expect(outcome.revisions).toMatchObject([{ action: 'create', status: 'pending_approval', name: 'multi-city-weather-report' }]);
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(2);
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: 12, lastReviewedAt: events.at(-1)!.timestamp });
    const [rev] = await h.store.listRevisions(started.scopeKey, 'multi-city-weather-report');
    expect(rev).toMatchObject({ id: outcome.revisions[0]!.revisionId, status: 'pending_approval' });
  });

  it('policy "no" (small talk): cursor advanced, reviewer never called', async () => {
    const session = newSession();
    const events = exampleSession('small-talk');
    const { started, outcome } = await submit(events, session);
    expect(outcome).toMatchObject({ status: 'policy_skipped', cursorAdvanced: true, revisions: [], deltaEvents: 2 });
    expect(outcome.reason).toMatch(/policy declined/);
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(0);
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: 2, lastReviewedAt: events.at(-1)!.timestamp });
  });

  it('reviewer skip ([[skip]]): cursor advanced, nothing proposed', async () => {
    const session = newSession();
    const events = weatherWith('[[skip]]');
    const { started, outcome } = await submit(events, session);
    expect(outcome).toMatchObject({ status: 'reviewer_skipped', cursorAdvanced: true, revisions: [], reason: 'skip requested by [[skip]] marker' });
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(1);
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: 12, lastReviewedAt: events.at(-1)!.timestamp });
    expect(await h.store.listSkillIds(started.scopeKey)).toEqual([]);
  });
});

// A task-queue activity costs the server an activity task and a workflow task; the S3 steps
// before the model call run as local activities inside the workflow task that schedules them.
// Once the reviewer has answered, every step is a task-queue activity, so that a storage outage
// is waited out by the server's retries (EVOLUTION_STORAGE_OUTAGE_TOLERANCE) and never discards the answer.
describe('activities per job: the model call and every step after it are task-queue activities', () => {
  const activityTypes = async (jobWorkflowId: string) => activitySteps(await h.env.client.workflow.getHandle(jobWorkflowId).fetchHistory());

  async function storedCursor(scopeKey: string, sessionId: string): Promise<Record<string, unknown>> {
    const fetched = await h.store.objects.getText(cursorKey(scopeKey, sessionId));
    if (!fetched || fetched.notModified) throw new Error(`no cursor stored for ${sessionId}`);
    return JSON.parse(fetched.value);
  }

  async function storedOutcome(scopeKey: string, jobId: string): Promise<Record<string, unknown>> {
    const fetched = await h.store.objects.getText(jobOutcomeKey(scopeKey, jobId));
    if (!fetched || fetched.notModified) throw new Error(`no outcome recorded for ${jobId}`);
    return JSON.parse(fetched.value);
  }

  it('policy "no": governance comes with the review preparation, the outcome is recorded with the cursor', async () => {
    const session = newSession();
    const { started, outcome } = await submit(exampleSession('small-talk'), session);
    expect(await activityTypes(started.jobWorkflowId)).toEqual(['local:prepareReview', 'local:advanceCursor']);
    expect(await storedOutcome(started.scopeKey, outcome.jobId)).toMatchObject({ status: 'policy_skipped', cursorAdvanced: true });
  });

  it("reviewer skip: prepare, then the review advances the cursor with the reviewer's answer, then the outcome", async () => {
    const session = newSession();
    const { started, outcome } = await submit(weatherWith('[[skip]]'), session);
    expect(await activityTypes(started.jobWorkflowId)).toEqual(['local:prepareReview', 'reviewSession', 'recordJobOutcome']);
    expect(await storedOutcome(started.scopeKey, outcome.jobId)).toMatchObject({ status: 'reviewer_skipped', cursorAdvanced: true });
    expect(await storedCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: 12, review: { decision: { skip_reason: expect.any(String), creates: [] } } });
  });

  it("a valid decision: the review step's write advances the cursor (with the answer), and the same step plans the job, before any revision is recorded", async () => {
    const session = newSession();
    const { started, outcome } = await submit(exampleSession('weather-report'), session);
    expect(outcome).toMatchObject({ status: 'reviewed', cursorAdvanced: true, revisions: [{ action: 'create', status: 'pending_approval' }] });
    const history = await h.env.client.workflow.getHandle(started.jobWorkflowId).fetchHistory();
    // The held revision is the job's last write: recording it records the outcome too.
    expect(activitySteps(history)).toEqual(['local:prepareReview', 'reviewSession', 'recordRevision']);
    // The revision is in history once, as planned: recording it answers with an ack, not the revision again.
    expect(activityResults(history, 'recordRevision')).toEqual([{ asWritten: true }]);
    expect(await storedOutcome(started.scopeKey, outcome.jobId)).toEqual({ ...outcome, recordedAt: expect.any(String) });
    expect(await storedCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: 12, review: { decision: { creates: [{ name: expect.any(String) }] } } });
    // The plan is in the review step's result: the decision is in history once.
    expect(activityResults(history, 'reviewSession')).toEqual([
      expect.objectContaining({ cursorAdvanced: true, plan: expect.objectContaining({ revisions: [expect.objectContaining({ action: 'create' })] }) }),
    ]);
  });

  it('reviewer failure: three model answers, the failure counted for quarantine and the outcome recorded in one activity, the cursor stays', async () => {
    const session = newSession();
    const { started, outcome } = await submit(weatherWith('[[fault:malformed]]'), session);
    expect(await activityTypes(started.jobWorkflowId)).toEqual(['local:prepareReview', 'reviewSession', 'reviewSession', 'reviewSession', 'local:recordReviewFailure']);
    expect(outcome).toMatchObject({ status: 'reviewer_failed', cursorAdvanced: false });
    expect(await storedOutcome(started.scopeKey, outcome.jobId)).toEqual({ ...outcome, recordedAt: expect.any(String) });
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toBeUndefined();
  });
});
