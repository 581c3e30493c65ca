import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalWorkflowId } from '../../core/workflow-ids';
import { experimentWorkflow, type ApprovalResult, type ExperimentReport } from '../../workflows';
import { createEvaluatorWorker } from '../../workers/evaluator';
import { uniqueName } from '../support/infra';
import { publishNewRevision, seedManagedSkill, weatherDataset, weatherRequest, type ManagedSkill } from '../support/gepa';
import { startTimeSkipping, type TimeSkippingHarness } from '../support/time-skipping';

const APPROVAL_TIMEOUT_MS = 72 * 3_600_000;

let h: TimeSkippingHarness;
let stopEvaluator: () => Promise<void>;
interface Submitted {
  skill: ManagedSkill;
  report: ExperimentReport;
}
let fresh: Submitted;
let stale: Submitted & { newer: string; etagBefore: string };

/**
 * Both experiments run first, in real time, through a client that does not unlock time
 * skipping, so the approvals' 72 h timers stay pending until a test awaits one of them
 * through the time-skipping client (the server then skips to the timer). Running an
 * experiment after a skip left this test server's time locked when awaited next, hence
 * no experiment runs between the two awaits.
 */
beforeAll(async () => {
  // Expiry promotes here (EVOLUTION_APPROVAL_EXPIRY_ACTION=promote, as the reference does; the default rejects).
  h = await startTimeSkipping((c) => ({ ...c, governance: { ...c.governance, approvalTimeoutMs: APPROVAL_TIMEOUT_MS, approvalExpiryAction: 'promote' } }));
  const plain = new Client({ connection: h.env.connection, namespace: h.env.namespace ?? 'default' });
  const evaluatorQueue = uniqueName('ts-eval');
  const { worker } = await createEvaluatorWorker({ config: h.config, connection: h.env.nativeConnection, taskQueue: evaluatorQueue });
  const running = worker.run();
  stopEvaluator = async () => {
    worker.shutdown();
    await running;
  };
  const submit = async (): Promise<Submitted> => {
    const skill = await seedManagedSkill(h.store);
    const request = weatherRequest(evaluatorQueue, weatherDataset(), {
      scope: skill.scope,
      skillId: skill.skillId,
      parentRevisionId: skill.revisionId,
      submit: true,
      options: { maxIterations: 3 },
    });
    const handle = await plain.workflow.start(experimentWorkflow, { workflowId: `experiment/${uniqueName('ts-exp')}`, taskQueue: h.taskQueue, args: [{ request }] });
    return { skill, report: (await h.run(() => handle.result())) as ExperimentReport };
  };
  fresh = await submit();
  const second = await submit();
  // Someone publishes by hand while the second revision waits for approval.
  const newer = await publishNewRevision(h.store, second.skill);
  stale = { ...second, newer, etagBefore: (await h.store.readActive(second.skill.scopeKey, second.skill.skillId))!.etag };
});
afterAll(async () => {
  await stopEvaluator?.();
  await h?.close();
});

const awaitApproval = (revisionId: string) => h.run(() => h.env.client.workflow.getHandle(approvalWorkflowId(revisionId)).result()) as Promise<ApprovalResult>;

describe('GEPA submission and approval timeout (time-skipping server, real S3 and model server)', () => {
  it('a submitted winner waits in pending_approval; with an approval timeout configured it is published when the timer expires', async () => {
    const { skill, report } = fresh;
    const revisionId = report.submission.revisionId!;
    expect(report.submission).toMatchObject({ status: 'submitted', revisionStatus: 'pending_approval', approvalWorkflowId: approvalWorkflowId(revisionId) });
    expect((await h.store.readRevision(skill.scopeKey, skill.skillId, revisionId))!.status).toBe('pending_approval');
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(skill.revisionId);

    const wallStart = Date.now();
    const approval = await awaitApproval(revisionId);
    expect(Date.now() - wallStart).toBeLessThan(60_000); // 72 simulated hours, skipped
    expect(approval).toMatchObject({ decision: 'auto_expired', reviewer: 'auto-expire', finalStatus: 'active' });
    const revision = (await h.store.readRevision(skill.scopeKey, skill.skillId, revisionId))!;
    expect(Date.parse(revision.promotedAt!) - Date.parse(revision.createdAt)).toBeGreaterThanOrEqual(APPROVAL_TIMEOUT_MS);
    expect((await h.store.readActive(skill.scopeKey, skill.skillId))!.pointer.revisionId).toBe(revisionId);
  });

  it('when the skill changed while the revision waited, the expiry is a stale-parent rejection and the active skill is untouched', async () => {
    const { skill, report, newer, etagBefore } = stale;
    const revisionId = report.submission.revisionId!;
    expect(report.submission.revisionStatus).toBe('pending_approval');
    const approval = await awaitApproval(revisionId);
    expect(approval).toMatchObject({ decision: 'stale_parent', finalStatus: 'rejected' });
    const after = await h.store.readActive(skill.scopeKey, skill.skillId);
    expect(after!.pointer.revisionId).toBe(newer);
    expect(after!.etag).toBe(etagBefore);
    expect((await h.store.readRevision(skill.scopeKey, skill.skillId, revisionId))!.status).toBe('rejected');
  });
});
