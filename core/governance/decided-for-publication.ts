import { operationId } from '../publication/operations';
import type { Revision } from '../schemas';

/**
 * A gated revision (`pending`: it passed every gate) as stored when its job publishes it next:
 * decided for publication (`active`, promoted at its creation). Its derived status stays
 * `pending` until the publication applies (core revisionStatus). Other statuses are stored
 * as gated. The job's workflow and recordRevision both use it, so the workflow knows what
 * was stored without it coming back through history.
 */
export function decidedForPublication(gated: Revision): Revision {
  if (gated.status !== 'pending') return gated;
  const reason = publicationReason(gated);
  return {
    ...gated,
    status: 'active',
    promotedAt: gated.createdAt,
    history: [...gated.history, { from: 'pending', to: 'active', at: gated.createdAt, reason }],
  };
}

/** Why a job publishes a revision that came out of its gates `pending`. */
export function publicationReason(gated: Pick<Revision, 'shadowBypassed'>): string {
  return gated.shadowBypassed ? 'shadow mode: published despite gate verdicts' : 'all gates passed';
}

/**
 * What publishing a revision reads of it: a job passes this much of the revision it just
 * stored, not its gates and provenance (`source` and the risk tier decide whether it
 * publishes as a canary, EVOLUTION_CANARY).
 */
export type PublishableRevision = Pick<
  Revision,
  'id' | 'skillId' | 'scopeKey' | 'action' | 'source' | 'risk' | 'status' | 'parentId' | 'spec' | 'human' | 'shadowBypassed' | 'history'
>;

export function publishableOf(rev: PublishableRevision): PublishableRevision {
  const { id, skillId, scopeKey, action, source, risk, status, parentId, spec, human, shadowBypassed, history } = rev;
  return {
    id,
    skillId,
    scopeKey,
    action,
    source,
    ...(risk === undefined ? {} : { risk: { tier: risk.tier, reasons: [] } }),
    status,
    ...(parentId === undefined ? {} : { parentId }),
    ...(spec === undefined ? {} : { spec }),
    ...(human === undefined ? {} : { human }),
    shadowBypassed,
    history,
  };
}

/**
 * recordRevision's result: `asWritten` when the stored revision is exactly
 * decidedForPublication of the one it was given, else the stored copy (a retry that finds
 * the revision moved on in its lifecycle).
 */
export type RecordedRevision = { asWritten: true } | Revision;

/**
 * A learning job's request to publish a revision it just recorded (recordRevision answered
 * `recorded`): its own step's operation, promoted by `evolution` at the revision's creation,
 * without waiting for the scope's index (whoever waits for the job does).
 */
export function jobPublication(jobId: string, revision: Revision, recorded: RecordedRevision) {
  return {
    revision: { scopeKey: revision.scopeKey, skillId: revision.skillId, revisionId: revision.id },
    known: publishableOf('asWritten' in recorded ? decidedForPublication(revision) : recorded),
    opId: operationId(jobId, `publish/${revision.id}`),
    actor: 'evolution',
    reason: publicationReason(revision),
    at: revision.createdAt,
    auditAction: 'promote' as const,
    awaitIndex: false,
  };
}
