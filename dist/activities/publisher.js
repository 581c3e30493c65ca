"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.movePointer = movePointer;
exports.pointerTargetOf = pointerTargetOf;
exports.publisherActivities = publisherActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../core");
const errors_1 = require("./errors");
const heartbeat_1 = require("./heartbeat");
const storage_1 = require("./storage");
/**
 * The one way a pointer moves (publication, approval, auto-expiry, rollback, delete,
 * import): one conditional PUT of `active.json`, with the operation remembered in the
 * pointer. Before the PUT, the operation's publication-log entry (its audit event, keyed
 * by operation id) is written create-only with the pointer seq it read: a retry finds it
 * and knows exactly whether its first attempt moved the pointer (core decidePublication),
 * so it never writes twice and never moves the pointer back over a newer operation.
 */
async function movePointer(store, op) {
    const logId = (0, core_1.auditEventId)(op.opId, op.action);
    let baseSeq;
    let logged = false;
    let prepared = false;
    let firstTry = true;
    return (0, storage_1.retryOnConflict)(async () => {
        const current = op.expectNew && firstTry ? undefined : await store.readActive(op.scopeKey, op.skillId);
        firstTry = false;
        let decision = (0, core_1.decidePublication)({ pointer: current?.pointer, opId: op.opId, baseSeq, requireParentId: op.requireParentId });
        if (decision.kind === 'apply' && !logged) {
            const { written } = await store.appendAudit({
                id: logId, at: op.at, action: op.action, skillId: op.skillId, scopeKey: op.scopeKey, revisionId: op.target.revisionId,
                status: 'active', actor: op.actor, reason: op.reason, opId: op.opId, baseSeq: current?.pointer.seq ?? 0,
            });
            logged = true;
            if (!written) {
                baseSeq = (await store.readAudit(op.scopeKey, op.skillId, op.at, logId))?.baseSeq;
                decision = (0, core_1.decidePublication)({ pointer: current?.pointer, opId: op.opId, baseSeq, requireParentId: op.requireParentId });
            }
        }
        if (decision.kind !== 'apply')
            return decision;
        if (!prepared) {
            await op.beforeApply?.();
            prepared = true;
        }
        const next = (0, core_1.nextPointer)(current?.pointer, op.target, op);
        await store.writeActive(op.scopeKey, op.skillId, next, current?.etag ?? null);
        return { kind: 'applied', applied: next.recent.at(-1), pointer: next };
    }, { attempts: 40 });
}
function pointerTargetOf(rev) {
    if (rev.action !== 'delete' && !rev.spec)
        throw activity_1.ApplicationFailure.nonRetryable(`revision ${rev.id} has no skill spec to publish`, errors_1.NON_RETRYABLE.store);
    return { skillId: rev.skillId, revisionId: rev.id, managed: true, spec: rev.spec, deleted: rev.action === 'delete' };
}
/**
 * The publisher: the only code that moves pointers (through movePointer). Statuses are
 * derived from the pointer (core revisionStatus), so nothing re-reads or re-writes other
 * revisions; SKILL.md and the scope index are materialized by the scope's index workflow,
 * which each operation signals with the pointer it leaves behind.
 */
function publisherActivities({ store, signalIndex }) {
    async function mustRead(ref) {
        const rev = await store.readRevision(ref.scopeKey, ref.skillId, ref.revisionId);
        if (!rev)
            throw activity_1.ApplicationFailure.nonRetryable(`revision ${ref.revisionId} of skill ${ref.skillId} does not exist in ${ref.scopeKey}`, errors_1.NON_RETRYABLE.store);
        return rev;
    }
    /** Tells the index workflow about `pointer` (or what the pointer is now); it acks the calling workflow. Returns the seq announced. */
    async function announce(scopeKey, skillId, pointer) {
        const now = pointer ?? (await store.readActive(scopeKey, skillId))?.pointer;
        if (!now)
            return undefined;
        await signalIndex(scopeKey, { ...(0, storage_1.indexChangeFor)(now), ackTo: activity_1.Context.current().info.workflowExecution?.workflowId });
        return now.seq;
    }
    async function audit(rev, opId, action, at, actor, reason, status) {
        await store.appendAudit({ id: (0, core_1.auditEventId)(opId, action), at, action, skillId: rev.skillId, scopeKey: rev.scopeKey, revisionId: rev.id, status, actor, reason, opId });
    }
    async function publishRevision(input) {
        return (0, errors_1.withStoreErrors)(() => (0, heartbeat_1.whileHeartbeating)(async () => {
            const rev = input.known && input.known.id === input.revision.revisionId ? input.known : await mustRead(input.revision);
            const staleEarlier = rev.history.find((h) => h.to === 'rejected' && h.at === input.at && h.reason.startsWith('stale parent'));
            if (staleEarlier) {
                // This operation already found the parent stale; a retry only completes its audit.
                await audit(rev, input.opId, 'stale_parent', input.at, input.actor, staleEarlier.reason, 'rejected');
                return { status: 'rejected', outcome: 'stale_parent' };
            }
            if (rev.status === 'rejected')
                throw activity_1.ApplicationFailure.nonRetryable(`revision ${rev.id} was rejected and cannot be published`, errors_1.NON_RETRYABLE.store);
            const human = input.auditAction === 'promote' ? undefined : { held: true, reasons: rev.human?.reasons ?? [], decision: 'approved', reviewer: input.actor, comment: input.reason, decidedAt: input.at };
            // The decision is stored on the revision (stored status `active` = decided for publication).
            const recordDecision = async () => {
                if (rev.status === 'active' || rev.status === 'archived')
                    return;
                await store.transitionRevision(input.revision, { to: 'active', reason: input.reason, at: input.at, patch: { ...(human ? { human } : {}), promotedAt: input.at } });
            };
            const result = await movePointer(store, {
                scopeKey: rev.scopeKey, skillId: rev.skillId, opId: input.opId, at: input.at, actor: input.actor, reason: input.reason,
                action: rev.action === 'delete' ? 'delete' : input.auditAction, target: pointerTargetOf(rev), requireParentId: input.requireParentId, beforeApply: recordDecision,
                expectNew: rev.action === 'create' && !rev.parentId,
            });
            if (result.kind === 'stale_parent') {
                const reason = `stale parent: the active revision is ${result.activeRevisionId ?? 'none'}, the submission was based on ${input.requireParentId}`;
                await audit(rev, input.opId, 'stale_parent', input.at, input.actor, reason, 'rejected');
                await store.transitionRevision(input.revision, { to: 'rejected', reason, at: input.at });
                return { status: 'rejected', outcome: 'stale_parent' };
            }
            // Applied now or by an earlier attempt: finish what that attempt may not have (all idempotent).
            await recordDecision();
            if (rev.shadowBypassed)
                await audit(rev, input.opId, 'shadow_bypass', input.at, input.actor, 'published in shadow mode despite gate verdicts', 'active');
            const indexSeq = await announce(rev.scopeKey, rev.skillId, result.kind === 'applied' ? result.pointer : undefined);
            return { status: result.kind === 'superseded' ? 'archived' : 'active', outcome: 'published', indexSeq };
        }));
    }
    async function rejectRevision({ revision, actor, reason, at, opId }) {
        return (0, errors_1.withStoreErrors)(async () => {
            const rev = await mustRead(revision);
            const human = { held: true, reasons: rev.human?.reasons ?? [], decision: 'rejected', reviewer: actor, comment: reason, decidedAt: at };
            const after = await store.transitionRevision(revision, { to: 'rejected', reason, at, patch: { human } });
            await audit(rev, opId, 'reject', at, actor, reason, 'rejected');
            return { status: after.status };
        });
    }
    async function rollbackSkill(input) {
        return (0, errors_1.withStoreErrors)(() => (0, heartbeat_1.whileHeartbeating)(async () => {
            const fail = (msg) => activity_1.ApplicationFailure.nonRetryable(msg, errors_1.NON_RETRYABLE.rollback);
            const current = await store.readActive(input.scopeKey, input.skillId);
            const recent = current?.pointer.recent ?? [];
            const doneAt = recent.findIndex((o) => o.opId === input.opId);
            if (doneAt >= 0) {
                // A retry: the first attempt moved the pointer; report what it did.
                const indexSeq = await announce(input.scopeKey, input.skillId, current.pointer);
                return { skillId: input.skillId, restoredRevisionId: recent[doneAt].revisionId, archivedRevisionId: recent[doneAt - 1]?.revisionId, indexSeq };
            }
            const revisions = await store.listRevisions(input.scopeKey, input.skillId); // statuses derived from the pointer
            if (revisions.length === 0)
                throw fail(`skill ${input.skillId} has no revisions in ${input.scopeKey}`);
            let target;
            if (input.targetRevisionId) {
                target = revisions.find((r) => r.id === input.targetRevisionId);
                if (!target)
                    throw fail(`revision ${input.targetRevisionId} is not a revision of skill ${input.skillId}`);
                if (target.status !== 'archived')
                    throw fail(`revision ${target.id} is ${target.status}, not archived: only archived revisions can be rolled back to`);
            }
            else {
                target = revisions.filter((r) => r.status === 'archived').at(-1);
                if (!target)
                    throw fail(`no archived revision of skill ${input.skillId} to roll back to`);
            }
            const previous = current?.pointer.revisionId;
            const reason = input.comment || `rollback from ${previous ?? 'nothing'} to ${target.id}`;
            const result = await movePointer(store, {
                scopeKey: input.scopeKey, skillId: input.skillId, opId: input.opId, at: input.at, actor: input.reviewer, reason, action: 'rollback', target: pointerTargetOf(target),
            });
            const indexSeq = await announce(input.scopeKey, input.skillId, result.kind === 'applied' ? result.pointer : undefined);
            if (result.kind === 'applied' && result.pointer) {
                const mine = result.pointer.recent;
                return { skillId: input.skillId, restoredRevisionId: target.id, archivedRevisionId: mine.at(-2)?.revisionId !== target.id ? mine.at(-2)?.revisionId : undefined, indexSeq };
            }
            return { skillId: input.skillId, restoredRevisionId: target.id, archivedRevisionId: previous !== target.id ? previous : undefined, indexSeq };
        }));
    }
    return { publishRevision, rejectRevision, rollbackSkill };
}
//# sourceMappingURL=publisher.js.map