import { condition, defineQuery, defineSignal, defineUpdate, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { RevisionRef } from '../core/governance/types';
import { approvalDecisionProblems, type ApprovalDecision } from '../core/governance/approval-decision';

export type { ApprovalDecision };

export interface ApprovalInput {
  revision: RevisionRef;
  /** Auto-promote after this long (reviewer `auto-expire`); undefined waits forever. */
  timeoutMs?: number;
  /** GEPA submissions: publication requires the active revision to still be this one. */
  requireParentId?: string;
  /** Marks a revision that came from offline optimization (audit wording only). */
  source?: 'reviewer' | 'gepa';
}

export interface ApprovalResult {
  revisionId: string;
  decision: 'approved' | 'rejected' | 'auto_expired' | 'stale_parent';
  reviewer: string;
  comment: string;
  finalStatus: string;
}

export interface ApprovalStatus {
  revisionId: string;
  decided: boolean;
  decision?: ApprovalDecision;
  deadline?: string;
}

/** Fire-and-forget decision; works from any Temporal client or `temporal workflow signal`. */
export const decideSignal = defineSignal<[ApprovalDecision]>('decide');
/** The same decision with an answer: rejected up front when already decided or malformed. */
export const decideUpdate = defineUpdate<ApprovalStatus, [ApprovalDecision]>('decideWithAnswer');
export const approvalStatusQuery = defineQuery<ApprovalStatus>('status');

const { publishRevision, rejectRevision } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError'] },
});

function validDecision(d: ApprovalDecision | undefined): string | undefined {
  const problems = approvalDecisionProblems(d);
  return problems.length === 0 ? undefined : problems.join('; ');
}

/**
 * Holds one revision (id `approval/{revisionId}`) until an approver decides or the
 * optional timeout auto-promotes it. The wait is a durable timer: it survives worker
 * and server restarts. Publication happens here, so the job that held the revision
 * may be long gone.
 */
export async function approvalWorkflow(input: ApprovalInput): Promise<ApprovalResult> {
  const { revision, timeoutMs } = input;
  let decision: ApprovalDecision | undefined;
  const deadline = timeoutMs === undefined ? undefined : new Date(workflowInfo().startTime.getTime() + timeoutMs).toISOString();
  const status = (): ApprovalStatus => ({ revisionId: revision.revisionId, decided: decision !== undefined, decision, deadline });

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
        if (decision !== undefined) throw new Error(`revision ${revision.revisionId} was already ${decision.decision === 'approve' ? 'approved' : 'rejected'} by ${decision.reviewer}`);
        const problem = validDecision(d);
        if (problem) throw new Error(problem);
      },
    },
  );
  setHandler(approvalStatusQuery, status);

  const decided = timeoutMs === undefined ? (await condition(() => decision !== undefined), true) : await condition(() => decision !== undefined, timeoutMs);
  const at = new Date().toISOString(); // workflow time: deterministic
  if (!decided) {
    const r = await publishRevision({ revision, actor: 'auto-expire', reason: `approval timeout of ${timeoutMs} ms expired`, at, auditAction: 'auto_expire', requireParentId: input.requireParentId });
    return { revisionId: revision.revisionId, decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'auto_expired', reviewer: 'auto-expire', comment: '', finalStatus: r.status };
  }
  const d = decision!;
  const comment = d.comment ?? '';
  if (d.decision === 'reject') {
    const r = await rejectRevision({ revision, actor: d.reviewer, reason: comment || 'rejected by approver', at });
    return { revisionId: revision.revisionId, decision: 'rejected', reviewer: d.reviewer, comment, finalStatus: r.status };
  }
  const r = await publishRevision({ revision, actor: d.reviewer, reason: comment || 'approved', at, auditAction: 'approve', requireParentId: input.requireParentId });
  return { revisionId: revision.revisionId, decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'approved', reviewer: d.reviewer, comment, finalStatus: r.status };
}
