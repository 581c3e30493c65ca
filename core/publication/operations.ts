import type { ActivePointer, AppliedOperation, Canary, Revision, RevisionStatus, SkillSpec } from '../schemas';

/**
 * How many operations a pointer remembers. A retried operation whose first attempt read
 * pointer seq `baseSeq` is recognised exactly while fewer than this many operations moved
 * the pointer since (see decidePublication).
 */
export const RECENT_OPERATIONS = 32;

export type PublicationDecision =
  /** This operation already moved the pointer (an earlier attempt): write nothing, return the first result. */
  | { kind: 'applied'; applied: AppliedOperation }
  /**
   * A retry that cannot tell whether its first attempt moved the pointer, because at least
   * RECENT_OPERATIONS newer operations have moved it since: it never moves it back.
   */
  | { kind: 'superseded' }
  /** GEPA submissions: the active revision is no longer the one the candidate was based on. */
  | { kind: 'stale_parent'; activeRevisionId?: string }
  | { kind: 'apply' };

export interface PublicationAttempt {
  /** The pointer as read now (undefined: the skill was never published). */
  pointer: ActivePointer | undefined;
  opId: string;
  /** Pointer seq an earlier attempt of this operation read before writing (from its log entry). */
  baseSeq?: number;
  requireParentId?: string;
}

/** The idempotence rule of every pointer operation (publication, approval, auto-expiry, rollback, delete, import). */
export function decidePublication({ pointer, opId, baseSeq, requireParentId }: PublicationAttempt): PublicationDecision {
  const applied = pointer?.recent.find((op) => op.opId === opId);
  if (applied) return { kind: 'applied', applied };
  if (baseSeq !== undefined && pointer && pointer.seq - baseSeq >= RECENT_OPERATIONS) return { kind: 'superseded' };
  if (requireParentId !== undefined) {
    const activeRevisionId = pointer && !pointer.deleted ? pointer.revisionId : undefined;
    if (activeRevisionId !== requireParentId) return { kind: 'stale_parent', activeRevisionId };
  }
  return { kind: 'apply' };
}

export interface PointerTarget {
  skillId: string;
  revisionId: string;
  managed: boolean;
  /** undefined with `deleted` for a delete without a known spec. */
  spec?: SkillSpec;
  deleted: boolean;
  /** A live canary over this (stable) revision; a target without one ends any canary. */
  canary?: Canary;
}

/** The pointer an operation writes over `current`: seq + 1, and the operation remembered. */
export function nextPointer(current: ActivePointer | undefined, target: PointerTarget, op: { opId: string; at: string }): ActivePointer {
  const seq = (current?.seq ?? 0) + 1;
  const recent = [...(current?.recent ?? []), { opId: op.opId, revisionId: target.canary?.revisionId ?? target.revisionId, seq }].slice(-RECENT_OPERATIONS);
  const common = { skillId: target.skillId, revisionId: target.revisionId, publishedAt: op.at, managed: target.managed, seq, recent };
  if (target.deleted) return { ...common, deleted: true, ...(target.spec ? { spec: target.spec } : {}) };
  if (!target.spec) throw new RangeError(`revision ${target.revisionId} has no skill spec to publish`);
  return { ...common, deleted: false, spec: target.spec, ...(target.canary ? { canary: target.canary } : {}) };
}

/** What the publication log and the stored status of a revision need from it. */
export type StatusInputs = Pick<Revision, 'id' | 'status' | 'updatedAt'> & { promotedAt?: string };

/**
 * THE status of a revision, derived from the skill's pointer (the single source of truth)
 * and the revision's stored decision. Stored statuses record decisions only (pending,
 * pending_eval, pending_approval, rejected, and `active` = "decided for publication");
 * whether a published revision is the current one is never stored:
 * - the pointer names it → active;
 * - decided for publication and remembered by the pointer as an earlier operation, or
 *   decided before the pointer's last operation → archived (superseded);
 * - decided after the pointer's last operation and not yet applied → pending (its
 *   publication is in flight; the operation that decided it is still running).
 */
export function revisionStatus(pointer: ActivePointer | undefined, revision: StatusInputs): RevisionStatus {
  // A canary's candidate is live too (for its cohort); the pointer says for whom.
  if (pointer?.revisionId === revision.id || (pointer && !pointer.deleted && pointer.canary?.revisionId === revision.id)) return 'active';
  if (revision.status !== 'active' && revision.status !== 'archived') return revision.status;
  if (pointer?.recent.some((op) => op.revisionId === revision.id)) return 'archived';
  const decidedAt = Date.parse(revision.promotedAt ?? revision.updatedAt);
  if (!pointer || decidedAt > Date.parse(pointer.publishedAt)) return 'pending';
  return 'archived';
}

/** Audit / publication-log ids: one format, `{operation id}:{action}`. */
export function auditEventId(opId: string, action: string): string {
  return `${opId}:${action}`;
}

/** Operation id of one step of a workflow: a function of who performs it, so retries and replays repeat it. */
export function operationId(workflowId: string, step: string): string {
  return `${workflowId}#${step}`;
}
