import type { WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clientScopeRecorder, type RecordScope } from '../../activities/usage';
import { scopeKey as scopeKeyOf, USAGE_BURST_INTERVAL_MS } from '../../core';
import { approvalWorkflowId, scopeIndexWorkflowId, scopeUsageWorkflowId } from '../../core/workflow-ids';
import { approvalWorkflow, decideUpdate, scopeIndexStateQuery, scopeUsageStateQuery } from '../../workflows';
import { uniqueName } from '../support/infra';
import { startTimeSkipping, storeHeldRevision, type TimeSkippingHarness } from '../support/time-skipping';

/**
 * A scope's index and usage workflows are woken by every publication and every session of
 * the scope; a publisher waits a few seconds for the index's ack. Each of these waits is
 * bounded by a timer that nothing cancels (workflows/alarm.ts): a wake-up adds no
 * TimerStarted/TimerCanceled pair to the history, and no cancel can cross the timer firing
 * (the time-skipping server strands a run when one does: rollout.test.ts hung so on a loaded
 * machine). The bounds still hold: the index reconciles when due, the usage workflow ends
 * after an hour without records, counted from the last one.
 */
const MINUTE = 60_000;
let h: TimeSkippingHarness;
let recordScope: RecordScope;

beforeAll(async () => {
  h = await startTimeSkipping();
  recordScope = clientScopeRecorder(h.env.client, h.taskQueue);
});
afterAll(async () => h?.close());

const { EventType } = temporal.api.enums.v1;

async function timerEvents(handle: WorkflowHandle): Promise<{ started: number; canceled: number; fired: number }> {
  const events = (await handle.fetchHistory()).events ?? [];
  const count = (type: temporal.api.enums.v1.EventType) => events.filter((e) => e.eventType === type).length;
  return { started: count(EventType.EVENT_TYPE_TIMER_STARTED), canceled: count(EventType.EVENT_TYPE_TIMER_CANCELED), fired: count(EventType.EVENT_TYPE_TIMER_FIRED) };
}

/** A scope no test has used: its usage workflow's handle, a session record of it, and a wait until the workflow has counted n records. */
function newUsageScope() {
  const key = scopeKeyOf({ mode: 'app', app: uniqueName('app') });
  const usage = h.env.client.workflow.getHandle(scopeUsageWorkflowId(key));
  const session = (i: number) => ({ kind: 'session' as const, usage: { jobId: `job-${key}-${i}`, sessionId: `s-${i}`, outcome: 'success' as const, loads: [] } });
  const counted = (n: number) => vi.waitFor(async () => expect((await usage.query(scopeUsageStateQuery)).counted).toBe(n), { timeout: 30_000, interval: 200 });
  return { key, usage, session, counted };
}

describe("a scope's workflows wait on timers they never cancel", () => {
  it('the index applies three publications with one reconcile timer and no cancel, reconciles when it is due; each approval waits for its ack without a cancel', async () => {
    const app = uniqueName('app');
    const key = scopeKeyOf({ mode: 'app', app });
    const held = await Promise.all([1, 2, 3].map(() => storeHeldRevision(h.store, { app })));
    // Approved without waiting on a result (which would let the server skip time): nothing here is due for 15 minutes.
    const approvals = [];
    for (const { ref } of held) {
      const handle = await h.env.client.workflow.start(approvalWorkflow, { taskQueue: h.taskQueue, workflowId: approvalWorkflowId(ref.revisionId), args: [{ revision: ref }] });
      await h.run(() => handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'alice' }] }));
      approvals.push(handle);
    }
    await vi.waitFor(
      async () => {
        const read = await h.store.readScopeIndex(key);
        expect(read && 'index' in read ? read.index.skills.map((s) => s.revisionId).sort() : []).toEqual(held.map((r) => r.ref.revisionId).sort());
      },
      { timeout: 30_000, interval: 200 },
    );

    const index = h.env.client.workflow.getHandle(scopeIndexWorkflowId(key));
    const before = await index.query(scopeIndexStateQuery);
    expect(before.bursts).toBeGreaterThanOrEqual(1);
    expect(before.reconciles).toBe(0);
    expect(await timerEvents(index)).toEqual({ started: 1, canceled: 0, fired: 0 });
    for (const approval of approvals) {
      await vi.waitFor(async () => expect((await approval.describe()).status.name).toBe('COMPLETED'), { timeout: 30_000, interval: 200 });
      // The ack came before its 30 s (and, when it came before the wait began, no timer was started): nothing cancelled.
      const timers = await timerEvents(approval);
      expect(timers).toMatchObject({ canceled: 0, fired: 0 });
      expect(timers.started).toBeLessThanOrEqual(1);
    }

    // The first reconcile is due 15 minutes after the index started.
    await h.run(() => h.env.sleep(16 * MINUTE));
    await vi.waitFor(async () => expect((await index.query(scopeIndexStateQuery)).reconciles).toBe(1), { timeout: 30_000, interval: 200 });
    expect(await timerEvents(index)).toMatchObject({ canceled: 0, fired: 1 });
  });

  it('the usage workflow counts each burst without a cancel, and ends after an hour without records, counted from the last one', async () => {
    const { key, usage, session, counted } = newUsageScope();

    await recordScope(key, [session(1)]);
    await counted(1);
    await h.run(() => h.env.sleep(40 * MINUTE));
    await recordScope(key, [session(2)]);
    await counted(2);
    // 80 minutes after it started, 40 after its last records: still counting.
    await h.run(() => h.env.sleep(40 * MINUTE));
    expect((await usage.describe()).status.name).toBe('RUNNING');
    // 70 minutes after its last records: done.
    await h.run(() => h.env.sleep(30 * MINUTE));
    await vi.waitFor(async () => expect((await usage.describe()).status.name).toBe('COMPLETED'), { timeout: 30_000, interval: 200 });
    // The first timer rang 20 minutes before the hour since the last records; the second ended the run.
    expect(await timerEvents(usage)).toEqual({ started: 2, canceled: 0, fired: 2 });
  });

  it('the usage workflow spaces its bursts while records keep coming (one write of the summary per interval, not one per signal), on timers it never cancels', async () => {
    const { key, usage, session, counted } = newUsageScope();
    // The first record starts the run and is counted at once; the stream that follows is what is spaced.
    await recordScope(key, [session(0)]);
    await counted(1);
    const signals = 10;
    const started = Date.now();
    for (let i = 1; i <= signals; i++) {
      await recordScope(key, [session(i)]);
      await new Promise((r) => setTimeout(r, 150));
    }
    const elapsed = Date.now() - started;
    await counted(signals + 1);
    const spaced = (await usage.query(scopeUsageStateQuery)).bursts - 1;
    // At most one burst per USAGE_BURST_INTERVAL_MS of the time the signals took, and one for the last ones; without the spacing, one per signal.
    expect(spaced).toBeGreaterThanOrEqual(1);
    expect(spaced).toBeLessThanOrEqual(Math.ceil(elapsed / USAGE_BURST_INTERVAL_MS) + 1);
    expect(spaced).toBeLessThan(signals);
    expect((await timerEvents(usage)).canceled).toBe(0);
    const stored = await h.store.readUsage(key);
    expect(stored?.summary.sessions).toBe(signals + 1);
  });
});
