import type { RevisionStatus } from './schemas/revision';

/**
 * The revision lifecycle of docs/design.md ("Revision lifecycle"), as data:
 *
 *   pending          → rejected | pending_eval | pending_approval | active
 *   pending_eval     → active | rejected | pending_approval   (an evaluator may decide later)
 *   pending_approval → active | rejected
 *   active           → archived                               (superseded, rolled back, deleted)
 *   archived         → active                                 (rollback target)
 *   rejected         → (terminal)
 */
export const REVISION_TRANSITIONS: Readonly<Record<RevisionStatus, readonly RevisionStatus[]>> = {
  pending: ['rejected', 'pending_eval', 'pending_approval', 'active'],
  pending_eval: ['active', 'rejected', 'pending_approval'],
  pending_approval: ['active', 'rejected'],
  active: ['archived'],
  archived: ['active'],
  rejected: [],
};

export function canTransition(from: RevisionStatus, to: RevisionStatus): boolean {
  return REVISION_TRANSITIONS[from].includes(to);
}

/**
 * What a requested move means for a revision now in `from`:
 * `apply` (a legal move), `noop` (already there: a retried activity succeeds), or `illegal`.
 */
export type TransitionVerdict = 'apply' | 'noop' | 'illegal';

export function judgeTransition(from: RevisionStatus, to: RevisionStatus): TransitionVerdict {
  if (from === to) return 'noop';
  return canTransition(from, to) ? 'apply' : 'illegal';
}

/** A status no revision ever leaves. */
export function isTerminalStatus(status: RevisionStatus): boolean {
  return REVISION_TRANSITIONS[status].length === 0;
}

/** Human-readable reason a move is refused, naming the moves that would be allowed. */
export function illegalTransitionMessage(revisionId: string, from: RevisionStatus, to: RevisionStatus): string {
  const allowed = REVISION_TRANSITIONS[from];
  const options = allowed.length ? `allowed from ${from}: ${allowed.join(', ')}` : `${from} is terminal`;
  return `revision ${revisionId} cannot move from ${from} to ${to} (${options})`;
}
