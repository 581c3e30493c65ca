import type { ApprovalDecision } from '../schemas/approval';

const COMMENT_MAX = 4000;

/**
 * What is wrong with an approver's decision, or [] when it is valid: the same rules as
 * ApprovalDecisionSchema, written without zod because the approval workflow checks every
 * `decide` signal and workflow code must stay cheap to instantiate (a unit test keeps the
 * two in agreement).
 */
export function approvalDecisionProblems(d: unknown): string[] {
  if (typeof d !== 'object' || d === null || Array.isArray(d)) return ['decision: expected an object'];
  const { decision, reviewer, comment } = d as Record<string, unknown>;
  const problems: string[] = [];
  if (decision !== 'approve' && decision !== 'reject') problems.push('decision: expected "approve" or "reject"');
  if (typeof reviewer !== 'string') problems.push('reviewer: expected a string');
  else if (reviewer.trim().length === 0) problems.push('reviewer: a reviewer name is required');
  else if (reviewer.trim() === 'auto-expire') problems.push('reviewer: reviewer "auto-expire" is reserved for the approval timeout');
  if (comment !== undefined) {
    if (typeof comment !== 'string') problems.push('comment: expected a string');
    else if (comment.length > COMMENT_MAX) problems.push(`comment: at most ${COMMENT_MAX} characters`);
  }
  return problems;
}

export type { ApprovalDecision };
