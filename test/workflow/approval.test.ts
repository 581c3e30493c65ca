import { WorkflowUpdateFailedError } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActivities } from '../../activities';
import { clientIndexSignaller, clientRejectionsSignaller } from '../../activities/scope-index-signal';
import { decideRevision } from '../../client/approvals';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { approvalStatusQuery, approvalWorkflow, decideSignal, decideUpdate, type ApprovalResult } from '../../workflows';
import { uniqueName } from '../support/infra';
import { sampleSpec, startTimeSkipping, storeHeldRevision, type TimeSkippingHarness } from '../support/time-skipping';
import { workflowBundle } from '../support/worker';

const HOUR = 3_600_000;
let h: TimeSkippingHarness;

beforeAll(async () => {
  h = await startTimeSkipping();
});
afterAll(async () => h?.close());

describe('approval workflow on the time-skipping server', () => {
  it('auto-expires after a 72h timeout: reviewer auto-expire, revision active, pointer moved, audited', async () => {
    const { ref } = await storeHeldRevision(h.store);
    expect(await h.store.readActive(ref.scopeKey, ref.skillId)).toBeUndefined();
    const wallStart = Date.now();
    const result = await h.run(() =>
      h.env.client.workflow.execute(approvalWorkflow, { taskQueue: h.taskQueue, workflowId: approvalWorkflowId(ref.revisionId), args: [{ revision: ref, timeoutMs: 72 * HOUR }] }),
    );
    expect(Date.now() - wallStart).toBeLessThan(60_000); // 72 simulated hours, skipped
    expect(result).toEqual<ApprovalResult>({ revisionId: ref.revisionId, decision: 'auto_expired', reviewer: 'auto-expire', comment: '', finalStatus: 'active' });

    const desc = await h.env.client.workflow.getHandle(approvalWorkflowId(ref.revisionId)).describe();
    const stored = await h.store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId);
    expect(stored?.status).toBe('active');
    expect(stored?.human).toMatchObject({ decision: 'approved', reviewer: 'auto-expire' });
    // Promoted at workflow time = start + 72h (the durable timer fired, nothing earlier).
    expect(Date.parse(stored!.promotedAt!) - desc.startTime.getTime()).toBeGreaterThanOrEqual(72 * HOUR);
    expect(Date.parse(stored!.promotedAt!) - desc.startTime.getTime()).toBeLessThan(73 * HOUR);

    const pointer = await h.store.readActive(ref.scopeKey, ref.skillId);
    expect(pointer?.pointer.revisionId).toBe(ref.revisionId);
    const audit = await h.store.listAudit(ref.scopeKey, ref.skillId);
    expect(audit.map((e) => e.action)).toEqual(['write_revision', 'auto_expire']);
    expect(audit[1]).toMatchObject({ actor: 'auto-expire', revisionId: ref.revisionId, status: 'active' });
    // The index is materialized by the scope's index workflow (on skipped time its ack may time out first).
    await vi.waitFor(
      async () =>
        expect(await h.store.readScopeIndex(ref.scopeKey)).toMatchObject({
          index: { skills: [{ skillId: ref.skillId, revisionId: ref.revisionId, name: stored!.spec!.name }] },
        }),
      { timeout: 30_000, interval: 200 },
    );
  });

  it('approves by update (active), then rejects an update of the same skill by signal (pointer unchanged)', async () => {
    const name = uniqueName('weather-report');
    const app = uniqueName('app');
    const v1 = await storeHeldRevision(h.store, { app, name });

    // Approve by update: the update answers with the accepted decision.
    const approvalId = approvalWorkflowId(v1.ref.revisionId);
    const approved = await h.run(async () => {
      const handle = await h.env.client.workflow.start(approvalWorkflow, { taskQueue: h.taskQueue, workflowId: approvalId, args: [{ revision: v1.ref, timeoutMs: 72 * HOUR }] });
      const answer = await handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'alice', comment: 'ship it' }] });
      expect(answer).toMatchObject({ revisionId: v1.ref.revisionId, decided: true, decision: { decision: 'approve', reviewer: 'alice' } });
      return handle.result();
    });
    expect(approved).toEqual<ApprovalResult>({ revisionId: v1.ref.revisionId, decision: 'approved', reviewer: 'alice', comment: 'ship it', finalStatus: 'active' });
    expect((await h.store.readRevision(v1.ref.scopeKey, v1.ref.skillId, v1.ref.revisionId))?.status).toBe('active');
    const pointerAfterApprove = await h.store.readActive(v1.ref.scopeKey, v1.ref.skillId);
    expect(pointerAfterApprove?.pointer.revisionId).toBe(v1.ref.revisionId);

    // Reject a held update of the same skill by signal: nothing published changes.
    const v2 = await storeHeldRevision(h.store, { app, name, action: 'update', parentId: v1.ref.revisionId, spec: { ...sampleSpec(name), pitfalls: ['Say Celsius.'] } });
    expect(v2.ref.skillId).toBe(v1.ref.skillId);
    const rejected = await h.run(async () => {
      const handle = await h.env.client.workflow.start(approvalWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: approvalWorkflowId(v2.ref.revisionId),
        args: [{ revision: v2.ref, timeoutMs: 72 * HOUR }],
      });
      await handle.signal(decideSignal, { decision: 'reject', reviewer: 'bob', comment: 'not better' });
      return handle.result();
    });
    expect(rejected).toEqual<ApprovalResult>({ revisionId: v2.ref.revisionId, decision: 'rejected', reviewer: 'bob', comment: 'not better', finalStatus: 'rejected' });
    const storedV2 = await h.store.readRevision(v2.ref.scopeKey, v2.ref.skillId, v2.ref.revisionId);
    expect(storedV2).toMatchObject({ status: 'rejected', human: { decision: 'rejected', reviewer: 'bob', comment: 'not better' } });
    const pointerAfterReject = await h.store.readActive(v1.ref.scopeKey, v1.ref.skillId);
    expect(pointerAfterReject).toEqual(pointerAfterApprove); // same pointer, same ETag
    expect((await h.store.readRevision(v1.ref.scopeKey, v1.ref.skillId, v1.ref.revisionId))?.status).toBe('active');
    const audit = await h.store.listAudit(v1.ref.scopeKey, v1.ref.skillId);
    expect(audit.filter((e) => e.revisionId === v2.ref.revisionId).map((e) => [e.action, e.actor])).toEqual([
      ['write_revision', 'reviewer'],
      ['reject', 'bob'],
    ]);

    // Deciding the decided revision again through the client is a clear error.
    const deps = { client: h.env.client, store: h.store };
    await expect(decideRevision(deps, v2.ref.revisionId, { decision: 'approve', reviewer: 'carol' })).rejects.toThrow(/not waiting for approval: it is rejected by bob/);
    await expect(decideRevision(deps, v1.ref.revisionId, { decision: 'reject', reviewer: 'carol' })).rejects.toThrow(/not waiting for approval: it is active by alice/);
  });

  it('a second decision by update is refused by the validator with a clear error; the first one wins', async () => {
    const { ref } = await storeHeldRevision(h.store);
    // Both updates are admitted before any worker polls this queue, so the workflow is
    // guaranteed to be running (undecided → decided) when the second one is validated.
    const taskQueue = uniqueName('ts-deferred');
    const handle = await h.env.client.workflow.start(approvalWorkflow, {
      taskQueue,
      workflowId: approvalWorkflowId(ref.revisionId),
      args: [{ revision: ref, timeoutMs: 72 * HOUR }],
    });
    const first = handle.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'alice' }] });
    await new Promise((r) => setTimeout(r, 300));
    const second = handle.executeUpdate(decideUpdate, { args: [{ decision: 'reject', reviewer: 'bob' }] });
    const late = await Worker.create({
      connection: h.env.nativeConnection,
      namespace: h.env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      // The scope index workflow runs on the harness's worker, which outlives this one.
      activities: createActivities(h.config, {
        signalIndex: clientIndexSignaller(h.env.client, h.taskQueue),
        signalRejections: clientRejectionsSignaller(h.env.client, h.taskQueue),
      }),
    });
    const [a, b, result] = await late.runUntil(async () => {
      const settled = await Promise.allSettled([first, second]);
      return [...settled, await handle.result()] as const;
    });

    const outcomes = [a, b];
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect(refused.reason).toBeInstanceOf(WorkflowUpdateFailedError);
    const message = (refused.reason as WorkflowUpdateFailedError).cause?.message ?? '';
    expect(message).toMatch(new RegExp(`^revision ${ref.revisionId} was already (approved by alice|rejected by bob)$`));
    // Whatever was accepted first is what happened.
    const winner = a.status === 'fulfilled' ? 'alice' : 'bob';
    expect(result.reviewer).toBe(winner);
    expect(result.decision).toBe(winner === 'alice' ? 'approved' : 'rejected');
    const audit = await h.store.listAudit(ref.scopeKey, ref.skillId);
    expect(audit.filter((e) => e.action === 'approve' || e.action === 'reject')).toHaveLength(1);

    // An invalid decision is refused by the validator too, before anything is recorded.
    const other = await storeHeldRevision(h.store);
    await h.run(async () => {
      const h2 = await h.env.client.workflow.start(approvalWorkflow, {
        taskQueue: h.taskQueue,
        workflowId: approvalWorkflowId(other.ref.revisionId),
        args: [{ revision: other.ref }],
      });
      await expect(h2.executeUpdate(decideUpdate, { args: [{ decision: 'approve', reviewer: 'auto-expire' }] })).rejects.toThrow(WorkflowUpdateFailedError);
      expect(await h2.query(approvalStatusQuery)).toMatchObject({ decided: false });
      await h2.terminate('test done');
    });
  });

  it('without a timeout the revision is still pending after 30 simulated days', async () => {
    const { ref } = await storeHeldRevision(h.store);
    const handle = await h.env.client.workflow.start(approvalWorkflow, { taskQueue: h.taskQueue, workflowId: approvalWorkflowId(ref.revisionId), args: [{ revision: ref }] });
    const before = await h.env.currentTimeMs();
    await h.run(async () => {
      await h.env.sleep('30 days');
      expect((await h.env.currentTimeMs()) - before).toBeGreaterThanOrEqual(30 * 24 * HOUR);
      expect(await handle.query(approvalStatusQuery)).toEqual({ revisionId: ref.revisionId, decided: false });
    });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await h.store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId))?.status).toBe('pending_approval');
    expect(await h.store.readActive(ref.scopeKey, ref.skillId)).toBeUndefined();
    expect((await h.store.listAudit(ref.scopeKey, ref.skillId)).map((e) => e.action)).toEqual(['write_revision']);
    await handle.terminate('test done');
  });
});
