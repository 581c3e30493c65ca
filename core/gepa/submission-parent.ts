import type { ActivePointer } from '../schemas/revision';

/** `parentRevisionId: 'active'` means "whatever is active when the run starts" (scheduled runs). */
export const ACTIVE_PARENT = 'active';

/**
 * Why a submitting experiment cannot succeed, checked before any metric call is spent:
 * submission only updates a managed skill whose active revision is the experiment's
 * parent (the same rule is checked again when the winner is submitted and approved).
 * `parentRevisionId` is the resolved parent (never `active`). Undefined when it can.
 */
export function submissionParentProblem(input: { skillId: string; scopeKey: string; parentRevisionId: string; active: ActivePointer | undefined }): string | undefined {
  const { skillId, scopeKey, parentRevisionId, active } = input;
  if (active === undefined || active.deleted) return `skill ${skillId} has no active revision in ${scopeKey}: a submission only updates an existing skill`;
  if (!active.managed) return `skill ${skillId} is not in the managed area: automated updates are not allowed`;
  if (active.revisionId !== parentRevisionId)
    return `stale parent: the active revision of skill ${skillId} is ${active.revisionId}, not ${parentRevisionId}; start the experiment from the active revision`;
  return undefined;
}
