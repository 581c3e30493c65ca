import type { Revision } from '../schemas/revision';

/**
 * Which revisions publish as a canary (EVOLUTION_CANARY): `none` (default: every revision
 * publishes as before), `all` (every update), or a comma list of `reviewer` (online-learning
 * updates), `gepa` (GEPA submissions), `high-risk` (updates the risk gate tiers high).
 * Only updates of a live skill can: a create or delete has no stable revision to compare
 * with, and a rollback is itself the way back.
 */
export const CANARY_KINDS = ['reviewer', 'gepa', 'high-risk'] as const;
export type CanaryKind = (typeof CANARY_KINDS)[number];
export type CanaryPolicy = 'none' | 'all' | CanaryKind[];

export function parseCanaryPolicy(text: string): CanaryPolicy {
  const v = text.trim().toLowerCase();
  if (v === '' || v === 'none') return 'none';
  if (v === 'all' || v === 'updates') return 'all';
  const kinds = v.split(',').map((k) => k.trim());
  for (const k of kinds)
    if (!(CANARY_KINDS as readonly string[]).includes(k)) throw new RangeError(`unknown canary kind "${k}": use none, all, or a list of ${CANARY_KINDS.join(', ')}`);
  return [...new Set(kinds as CanaryKind[])];
}

/** Whether this revision publishes as a canary over the live `stableRevisionId` (undefined: nothing live). */
export function goesThroughCanary(policy: CanaryPolicy, revision: Pick<Revision, 'action' | 'source' | 'risk'>, stableRevisionId: string | undefined): boolean {
  if (policy === 'none' || stableRevisionId === undefined || revision.action !== 'update' || revision.source === 'rollback') return false;
  if (policy === 'all') return true;
  return (
    (policy.includes('reviewer') && revision.source === 'reviewer') ||
    (policy.includes('gepa') && revision.source === 'gepa') ||
    (policy.includes('high-risk') && revision.risk?.tier === 'high')
  );
}
