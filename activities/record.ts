import { auditEventId, type Revision } from '../core';
import { withStoreErrors } from './errors';
import type { SkillStore } from './storage';

/**
 * Stores a gated revision (create-only, idempotent) with its audit trail. A revision that
 * passed every gate (`pending`) and that the caller publishes next (`publishNow`) is stored as decided for publication (`active`; its derived
 * status stays `pending` until its publication applies, see core revisionStatus), and its
 * publication's log entry is its audit event: nothing else is written for it here.
 * Returns the stored revision, which the publication reuses instead of re-reading it.
 */
export function recordActivities({ store }: { store: SkillStore }) {
  return {
    async recordRevision({ revision: gated, publishNow = false }: { revision: Revision; publishNow?: boolean }): Promise<Revision> {
      return withStoreErrors(async () => {
        const revision: Revision =
          publishNow && gated.status === 'pending'
            ? {
                ...gated,
                status: 'active',
                promotedAt: gated.createdAt,
                history: [
                  ...gated.history,
                  { from: 'pending', to: 'active', at: gated.createdAt, reason: gated.shadowBypassed ? 'shadow mode: published despite gate verdicts' : 'all gates passed' },
                ],
              }
            : gated;
        const stored = await store.createRevision(revision);
        if (revision.status === 'active') return stored;
        // The operation is the revision's recording: its id is the revision id.
        const event = (action: 'write_revision' | 'reject' | 'hold', reason: string) =>
          store.appendAudit({
            id: auditEventId(revision.id, action),
            opId: revision.id,
            at: revision.createdAt,
            action,
            skillId: revision.skillId,
            scopeKey: revision.scopeKey,
            revisionId: revision.id,
            status: revision.status,
            actor: revision.source,
            reason,
          });
        await event('write_revision', revision.reason);
        const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.held ? revision.human.reasons : []);
        if (revision.status === 'rejected') await event('reject', reasons.join('; '));
        if (revision.status === 'pending_eval' || revision.status === 'pending_approval') await event('hold', reasons.join('; '));
        return stored;
      });
    },
  };
}
