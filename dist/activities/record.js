"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.recordActivities = recordActivities;
const errors_1 = require("./errors");
/** Stores a gated revision (create-only, idempotent) with its audit trail. */
function recordActivities({ store }) {
    return {
        async recordRevision({ revision }) {
            await (0, errors_1.withStoreErrors)(async () => {
                await store.createRevision(revision);
                // Same timestamp for all three: the ordinal in the id keeps them in order in the listing.
                const event = (action, reason) => store.appendAudit({ id: `${revision.id}-${action === 'write_revision' ? 0 : 1}-${action}`, at: revision.createdAt, action, skillId: revision.skillId, scopeKey: revision.scopeKey, revisionId: revision.id, status: revision.status, actor: revision.source, reason });
                await event('write_revision', revision.reason);
                const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.held ? revision.human.reasons : []);
                if (revision.status === 'rejected')
                    await event('reject', reasons.join('; '));
                if (revision.status === 'pending_eval' || revision.status === 'pending_approval')
                    await event('hold', reasons.join('; '));
            });
        },
    };
}
//# sourceMappingURL=record.js.map