import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import { listQuarantines, showLearningJob } from '../../client/jobs';
import type { SessionEvent } from '../../core';
import { settledMetrics } from '../support/counters';
import { uniqueName } from '../support/infra';
import { reviewerCalls } from '../support/model-stats';
import { exampleSession } from '../support/sessions';
import { startTimeSkipping, type TimeSkippingHarness } from '../support/time-skipping';

// Issue 10 item 3: a delta whose review fails in K jobs (EVOLUTION_QUARANTINE_AFTER_FAILURES,
// default 3) is quarantined by the next job, which steps the cursor past it. The real
// learning job, reviewer activity and retry policy; time-skipping server for the backoffs.
let h: TimeSkippingHarness;

beforeAll(async () => {
  h = await startTimeSkipping((c) => ({ ...c, governance: { ...c.governance, humanGate: 'create_only', approvalTimeoutMs: undefined, shadowMode: false } }));
});
afterAll(async () => h?.close());

/** The weather session whose first message makes every reviewer answer malformed; `n` makes each submission a new segment. */
function poisonSession(n: number, extra: SessionEvent[] = []): SessionEvent[] {
  const events = exampleSession('weather-report');
  const poisoned = events.map((e, i) =>
    i === 0 ? { ...e, content: `${e.content as string} [[fault:malformed]]` } : i === events.length - 1 ? { ...e, content: `${e.content as string} (submission ${n})` } : e,
  );
  return [...poisoned, ...extra];
}

describe('poison deltas are quarantined', () => {
  it('after 3 failed jobs the 4th records the delta as quarantined with the reasons, advances the cursor, and counts it', async () => {
    expect(h.config.governance.quarantineAfterFailures).toBe(3);
    const session = { app: uniqueName('app'), user: 'u1', sessionId: uniqueName('s') };
    const deps = { client: h.env.client, store: h.store, config: h.config };
    const submit = async (events: SessionEvent[]) => {
      const started = await startLearningJob(deps, { ...session, events });
      return { started, outcome: await h.run(() => waitForLearningJob({ client: h.env.client, store: h.store }, started.jobWorkflowId, { timeoutMs: 60_000 })) };
    };

    for (let n = 1; n <= 3; n++) {
      const { outcome } = await submit(poisonSession(n));
      expect(outcome, `job ${n}`).toMatchObject({ status: 'reviewer_failed', cursorAdvanced: false });
    }
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(9);

    const events = poisonSession(4);
    const { started, outcome } = await submit(events);
    expect(outcome).toMatchObject({ status: 'quarantined', cursorAdvanced: true, revisions: [], deltaEvents: events.length });
    expect(outcome.reason).toMatch(/^delta quarantined after 3 failed reviews: review_decision: the model's answer is not valid JSON/);
    expect(outcome.quarantinedAfter).toHaveLength(3);
    expect(outcome.quarantinedAfter!.every((f) => /not valid JSON/.test(f.reason))).toBe(true);
    // The poison delta was not sent to the model again.
    expect(await reviewerCalls(h.config.llm.baseURL, session)).toBe(9);
    expect(await h.store.readCursor(started.scopeKey, session.sessionId)).toMatchObject({ lastEventCount: events.length, lastReviewedAt: events.at(-1)!.timestamp });
    expect((await h.run(() => settledMetrics(h.store, started.scopeKey))).deltasQuarantined).toBe(1);
    // The scope's session-level audit names the session, the job and the failures' reasons.
    const quarantines = await listQuarantines(h.store, started.scopeKey);
    expect(quarantines).toEqual([
      expect.objectContaining({
        action: 'quarantine_delta',
        sessionId: session.sessionId,
        jobId: started.jobWorkflowId,
        actor: 'evolution',
        reason: outcome.reason,
        failures: outcome.quarantinedAfter,
      }),
    ]);
    // One job's view (what `evolution job ID` prints) carries the reasons too.
    const shown = await showLearningJob({ client: h.env.client, store: h.store }, started.jobWorkflowId);
    expect(shown).toMatchObject({ jobId: started.jobWorkflowId, workflowStatus: 'COMPLETED', outcome: { status: 'quarantined', quarantinedAfter: outcome.quarantinedAfter } });

    // The session learns again: its next delta (after the cursor) is reviewed.
    const followup = exampleSession('weather-report-followup').slice(exampleSession('weather-report').length);
    const next = await submit([...events, ...followup]);
    expect(next.outcome.status).not.toBe('quarantined');
    expect(next.outcome.deltaEvents).toBe(followup.length);
  });
});
