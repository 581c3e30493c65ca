import type { Revision } from '../core';
import { withStoreErrors } from './errors';
import type { SkillStore } from './storage';

/** Stores a gated revision (create-only, idempotent) with its audit trail. */
export function recordActivities({ store }: { store: SkillStore }) {
  return {
    async recordRevision({ revision }: { revision: Revision }): Promise<void> {
      await withStoreErrors(async () => {
        await store.createRevision(revision);
        // Same timestamp for all three: the ordinal in the id keeps them in order in the listing.
        const event = (action: 'write_revision' | 'reject' | 'hold', reason: string) =>
          store.appendAudit({ id: `${revision.id}-${action === 'write_revision' ? 0 : 1}-${action}`, at: revision.createdAt, action, skillId: revision.skillId, scopeKey: revision.scopeKey, revisionId: revision.id, status: revision.status, actor: revision.source, reason });
        await event('write_revision', revision.reason);
        const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.held ? revision.human.reasons : []);
        if (revision.status === 'rejected') await event('reject', reasons.join('; '));
        if (revision.status === 'pending_eval' || revision.status === 'pending_approval') await event('hold', reasons.join('; '));
      });
    },
  };
}
