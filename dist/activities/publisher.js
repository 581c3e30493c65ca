"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.publisherActivities = publisherActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../core");
const errors_1 = require("./errors");
const storage_1 = require("./storage");
/**
 * The publisher: the only code that moves the active pointer. Each operation is one
 * conditional PUT of `active.json` (re-read and re-applied on a lost race), followed by
 * idempotent bookkeeping (revision statuses, audit, SKILL.md, scope index).
 */
function publisherActivities({ store }) {
    async function mustRead(ref) {
        const rev = await store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId);
        if (!rev)
            throw activity_1.ApplicationFailure.nonRetryable(`revision ${ref.revisionId} of skill ${ref.skillId} does not exist in ${ref.scopeKey}`, errors_1.NON_RETRYABLE.store);
        return rev;
    }
    function pointerFor(rev, at) {
        if (rev.action === 'delete')
            return (0, storage_1.tombstonePointer)({ skillId: rev.skillId, revisionId: rev.id, publishedAt: at });
        if (!rev.spec)
            throw activity_1.ApplicationFailure.nonRetryable(`revision ${rev.id} has no skill spec to publish`, errors_1.NON_RETRYABLE.store);
        return { skillId: rev.skillId, revisionId: rev.id, spec: rev.spec, publishedAt: at, managed: true, deleted: false };
    }
    /**
     * The audit key already holds the time; the leading ordinal orders the events of one
     * operation (archive, then the decision, then shadow_bypass) when they share it.
     */
    async function audit(rev, action, at, actor, reason, status) {
        const ordinal = action === 'shadow_bypass' ? 2 : 1;
        await store.appendAudit({ id: `${ordinal}-${rev.id}-${action}-${Date.parse(at).toString(36)}`, at, action, skillId: rev.skillId, scopeKey: rev.scopeKey, revisionId: rev.id, status, actor, reason });
    }
    /**
     * Makes `rev` active, then settles statuses so they follow the pointer: the pointer's
     * revision active, every other active revision archived — by whoever sees it first —
     * so concurrent publications converge without locks. A pass that read a pointer that
     * another publication moved meanwhile may have archived the new pointer's revision:
     * passes repeat until the pointer held still for a whole pass, re-activating it.
     * Only the caller whose transition archived a revision audits it (no duplicates).
     */
    async function settle(rev, at, actor, reason, patch) {
        const ref = { scopeKey: rev.scopeKey, skillId: rev.skillId, revisionId: rev.id };
        await store.transitionRevision(ref, { to: 'active', reason, at, patch });
        for (let pass = 0; pass < 10; pass++) {
            const current = await store.readActive(rev.scopeKey, rev.skillId);
            const named = current?.pointer.revisionId;
            for (const other of await store.listRevisions(rev.scopeKey, rev.skillId)) {
                const otherRef = { ...ref, revisionId: other.id };
                if (other.id === named) {
                    if (other.status === 'archived')
                        await store.transitionRevision(otherRef, { to: 'active', reason: 'named by the active pointer', at });
                    continue;
                }
                if (other.status !== 'active')
                    continue;
                // The pass number keeps a second archival by this same call from looking "already applied".
                const why = `superseded by ${named ?? rev.id}${pass ? ` (pass ${pass + 1})` : ''}`;
                const after = await store.transitionRevision(otherRef, { to: 'archived', reason: why, at });
                // Audited by the caller whose transition it is, keyed by the history entry (unique, stable on retry).
                let entry = -1;
                after.history.forEach((h, i) => { if (h.to === 'archived' && h.at === at && h.reason === why)
                    entry = i; });
                if (entry >= 0)
                    await store.appendAudit({ id: `0-${other.id}-archive-${entry}`, at, action: 'archive', skillId: other.skillId, scopeKey: other.scopeKey, revisionId: other.id, status: 'archived', actor, reason: why });
            }
            if ((await store.readActive(rev.scopeKey, rev.skillId))?.etag === current?.etag)
                break;
        }
        await materialize(rev.scopeKey, rev.skillId);
    }
    /** SKILL.md and the scope index follow the pointer; re-derived until the pointer holds still. */
    async function materialize(scopeKey, skillId) {
        for (let i = 0; i < 3; i++) {
            const before = await store.readActive(scopeKey, skillId);
            if ((0, core_1.isLivePointer)(before?.pointer))
                await store.writePublished(scopeKey, skillId, (0, core_1.renderSkillMarkdown)(before.pointer.spec));
            else
                await store.deletePublished(scopeKey, skillId);
            await store.rebuildScopeIndex(scopeKey);
            const after = await store.readActive(scopeKey, skillId);
            if (after?.etag === before?.etag)
                return;
        }
    }
    async function publishRevision(input) {
        return (0, errors_1.withStoreErrors)(async () => {
            const rev = await mustRead(input.revision);
            const staleEarlier = rev.history.find((h) => h.to === 'rejected' && h.at === input.at && h.reason.startsWith('stale parent'));
            if (staleEarlier) {
                // This operation already found the parent stale; a retry only completes its audit.
                await audit(rev, 'stale_parent', input.at, input.actor, staleEarlier.reason, 'rejected');
                return { status: 'rejected', outcome: 'stale_parent' };
            }
            if (rev.status === 'rejected')
                throw activity_1.ApplicationFailure.nonRetryable(`revision ${rev.id} was rejected and cannot be published`, errors_1.NON_RETRYABLE.store);
            // A retry of an attempt that already published must not write the pointer again: a
            // newer publication may have replaced this revision since (it is archived then; a
            // held or pending revision can only become archived by having been active).
            const publishedEarlier = rev.status === 'archived' || rev.history.some((h) => h.to === 'active' && h.at === input.at);
            if (rev.status === 'archived') {
                await audit(rev, rev.action === 'delete' ? 'delete' : input.auditAction, input.at, input.actor, input.reason, 'active');
                return { status: 'archived', outcome: 'published' };
            }
            const stale = await (0, storage_1.retryOnConflict)(async () => {
                const current = await store.readActive(rev.scopeKey, rev.skillId);
                if (publishedEarlier || current?.pointer.revisionId === rev.id)
                    return undefined;
                if (input.requireParentId !== undefined) {
                    const activeId = (0, core_1.isLivePointer)(current?.pointer) ? current.pointer.revisionId : undefined;
                    if (activeId !== input.requireParentId)
                        return activeId ?? 'none';
                }
                await store.writeActive(rev.scopeKey, rev.skillId, pointerFor(rev, input.at), current?.etag ?? null);
                return undefined;
            });
            if (stale !== undefined) {
                const reason = `stale parent: the active revision is ${stale}, the submission was based on ${input.requireParentId}`;
                await audit(rev, 'stale_parent', input.at, input.actor, reason, 'rejected');
                await store.transitionRevision(input.revision, { to: 'rejected', reason, at: input.at });
                return { status: 'rejected', outcome: 'stale_parent' };
            }
            const human = input.auditAction === 'promote' ? undefined : { held: true, reasons: rev.human?.reasons ?? [], decision: 'approved', reviewer: input.actor, comment: input.reason, decidedAt: input.at };
            await settle(rev, input.at, input.actor, input.reason, human ? { human } : undefined);
            await audit(rev, rev.action === 'delete' ? 'delete' : input.auditAction, input.at, input.actor, input.reason, 'active');
            if (rev.shadowBypassed)
                await audit(rev, 'shadow_bypass', input.at, input.actor, 'published in shadow mode despite gate verdicts', 'active');
            return { status: 'active', outcome: 'published' };
        });
    }
    async function rejectRevision({ revision, actor, reason, at }) {
        return (0, errors_1.withStoreErrors)(async () => {
            const rev = await mustRead(revision);
            const human = { held: true, reasons: rev.human?.reasons ?? [], decision: 'rejected', reviewer: actor, comment: reason, decidedAt: at };
            const after = await store.transitionRevision(revision, { to: 'rejected', reason, at, patch: { human } });
            await audit(rev, 'reject', at, actor, reason, 'rejected');
            return { status: after.status };
        });
    }
    async function rollbackSkill(input) {
        return (0, errors_1.withStoreErrors)(async () => {
            const revisions = await store.listRevisions(input.scopeKey, input.skillId);
            const fail = (msg) => activity_1.ApplicationFailure.nonRetryable(msg, errors_1.NON_RETRYABLE.rollback);
            if (revisions.length === 0)
                throw fail(`skill ${input.skillId} has no revisions in ${input.scopeKey}`);
            const current = await store.readActive(input.scopeKey, input.skillId);
            let target;
            if (input.targetRevisionId) {
                target = revisions.find((r) => r.id === input.targetRevisionId);
                if (!target)
                    throw fail(`revision ${input.targetRevisionId} is not a revision of skill ${input.skillId}`);
                // A retried activity finds its own earlier work done.
                const done = target.status === 'active' && current?.pointer.revisionId === target.id && target.history.some((h) => h.at === input.at);
                if (!done && target.status !== 'archived')
                    throw fail(`revision ${target.id} is ${target.status}, not archived: only archived revisions can be rolled back to`);
            }
            else {
                target = revisions.filter((r) => r.status === 'active' && r.id === current?.pointer.revisionId && r.history.some((h) => h.at === input.at)).at(-1)
                    ?? revisions.filter((r) => r.status === 'archived').at(-1);
                if (!target)
                    throw fail(`no archived revision of skill ${input.skillId} to roll back to`);
            }
            const previous = current?.pointer.revisionId;
            const reason = input.comment || `rollback from ${previous ?? 'nothing'} to ${target.id}`;
            const chosen = target;
            await (0, storage_1.retryOnConflict)(async () => {
                const now = await store.readActive(input.scopeKey, input.skillId);
                if (now?.pointer.revisionId === chosen.id)
                    return;
                await store.writeActive(input.scopeKey, input.skillId, pointerFor(chosen, input.at), now?.etag ?? null);
            });
            await settle(chosen, input.at, input.reviewer, reason);
            await audit(chosen, 'rollback', input.at, input.reviewer, reason, 'active');
            return { skillId: input.skillId, restoredRevisionId: chosen.id, archivedRevisionId: previous !== chosen.id ? previous : undefined };
        });
    }
    return { publishRevision, rejectRevision, rollbackSkill };
}
//# sourceMappingURL=publisher.js.map