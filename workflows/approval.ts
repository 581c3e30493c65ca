import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { approvalDecisionProblems } from '../core/governance/approval-decision';
import {
  approvalStatusQuery,
  decideSignal,
  decideUpdate,
  type ApprovalDecision,
  type ApprovalInput,
  type ApprovalResult,
  type ApprovalStatus,
} from '../core/workflow-api/approval';
import { checkApprovalInput } from '../core/workflow-inputs';
import { requireValidInput } from './input-guard';
import { decidedWorkOptions } from './retry-policies';
import { operationId } from '../core/publication/operations';
import { indexAcks } from './index-acks';

export { approvalStatusQuery, decideSignal, decideUpdate, type ApprovalDecision, type ApprovalInput, type ApprovalResult, type ApprovalStatus };

function validDecision(d: ApprovalDecision | undefined): string | undefined {
  const problems = approvalDecisionProblems(d);
  return problems.length === 0 ? undefined : problems.join('; ');
}

/**
 * Holds one revision (id `approval/{revisionId}`) until an approver decides or the
 * optional timeout decides for them: `expiryAction` reject (the default setting, and always
 * for a high-risk revision) or promote (the reference's behaviour, and approvals started
 * before the setting). The wait is a durable timer: it survives worker
 * and server restarts. Publication happens here, so the job that held the revision
 * may be long gone.
 */
export async function approvalWorkflow(input: ApprovalInput): Promise<ApprovalResult> {
  requireValidInput('approval', checkApprovalInput(input));
  const { revision, timeoutMs } = input;
  // A decision (or its expiry) is never lost to an outage: its publication waits the outage out.
  const { publishRevision, rejectRevision } = proxyActivities<Activities>(decidedWorkOptions(input.storageOutageToleranceMs, { heartbeat: true }));
  const indexed = indexAcks();
  let decision: ApprovalDecision | undefined;
  const deadline = timeoutMs === undefined ? undefined : new Date(workflowInfo().startTime.getTime() + timeoutMs).toISOString();
  const expiryAction = input.expiryAction ?? 'promote';
  const status = (): ApprovalStatus => ({ revisionId: revision.revisionId, decided: decision !== undefined, decision, deadline, ...(deadline ? { expiryAction } : {}) });

  setHandler(decideSignal, (d) => {
    // A signal cannot answer; the first valid decision wins and later ones are ignored.
    if (decision === undefined && validDecision(d) === undefined) decision = d;
  });
  setHandler(
    decideUpdate,
    (d) => {
      decision = d;
      return status();
    },
    {
      validator: (d) => {
        if (decision !== undefined)
          throw new Error(`revision ${revision.revisionId} was already ${decision.decision === 'approve' ? 'approved' : 'rejected'} by ${decision.reviewer}`);
        const problem = validDecision(d);
        if (problem) throw new Error(problem);
      },
    },
  );
  setHandler(approvalStatusQuery, status);

  const decided = timeoutMs === undefined ? (await condition(() => decision !== undefined), true) : await condition(() => decision !== undefined, timeoutMs);
  const at = new Date().toISOString(); // workflow time: deterministic
  const opId = operationId(workflowInfo().workflowId, 'decision');
  if (!decided && expiryAction === 'reject') {
    const r = await rejectRevision({ revision, actor: 'auto-expire', reason: `approval timeout of ${timeoutMs} ms expired: rejected (nobody approved it)`, at, opId });
    return { revisionId: revision.revisionId, decision: 'auto_rejected', reviewer: 'auto-expire', comment: '', finalStatus: r.status };
  }
  if (!decided) {
    const r = await publishRevision({
      revision,
      actor: 'auto-expire',
      reason: `approval timeout of ${timeoutMs} ms expired`,
      at,
      auditAction: 'auto_expire',
      opId,
      requireParentId: input.requireParentId,
    });
    await indexed.until(revision.skillId, r.indexSeq, '30 seconds');
    return {
      revisionId: revision.revisionId,
      decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'auto_expired',
      reviewer: 'auto-expire',
      comment: '',
      finalStatus: r.status,
    };
  }
  const d = decision!;
  const comment = d.comment ?? '';
  if (d.decision === 'reject') {
    const r = await rejectRevision({ revision, actor: d.reviewer, reason: comment || 'rejected by approver', at, opId });
    return { revisionId: revision.revisionId, decision: 'rejected', reviewer: d.reviewer, comment, finalStatus: r.status };
  }
  const r = await publishRevision({ revision, actor: d.reviewer, reason: comment || 'approved', at, auditAction: 'approve', opId, requireParentId: input.requireParentId });
  // Read-your-writes: the approver's next look (or an agent's refresh) sees the publication.
  await indexed.until(revision.skillId, r.indexSeq, '30 seconds');
  return { revisionId: revision.revisionId, decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'approved', reviewer: d.reviewer, comment, finalStatus: r.status };
}
