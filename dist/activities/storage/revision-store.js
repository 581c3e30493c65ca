"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MUTABLE_REVISION_FIELDS = void 0;
exports.revisionStore = revisionStore;
const zod_1 = require("zod");
const core_1 = require("../../core");
const revision_lifecycle_1 = require("../../core/revision-lifecycle");
const canonical_json_1 = require("./canonical-json");
const cas_retry_1 = require("./cas-retry");
const errors_1 = require("./errors");
const input_1 = require("./input");
const keys_1 = require("./keys");
const map_limit_1 = require("./map-limit");
/** Fields a status transition may change; everything else is immutable content (invariant 3). */
exports.MUTABLE_REVISION_FIELDS = ['status', 'updatedAt', 'history', 'gates', 'human', 'shadowBypassed', 'promotedAt'];
const RevisionLocatorSchema = zod_1.z.object({ scopeKey: zod_1.z.string(), skillId: zod_1.z.string() });
const READ_CONCURRENCY = 8;
/**
 * `pointerOf` reads a skill's pointer: every listing reports the status derived from it
 * (core `revisionStatus`), never a stored copy kept in sync.
 */
function revisionStore(objects, pointerOf) {
    async function withStatus(scopeKey, skillId, revisions) {
        if (revisions.length === 0)
            return revisions;
        const pointer = await pointerOf(scopeKey, skillId);
        return revisions.map((r) => ({ ...r, status: (0, core_1.revisionStatus)(pointer, r) }));
    }
    /** The stored revision: its `status` is the stored decision (see revisionStatus for the status). */
    async function readRevision(scopeKey, skillId, revisionId) {
        return (await objects.getJson((0, keys_1.revisionKey)(scopeKey, skillId, revisionId), core_1.RevisionSchema))?.value;
    }
    /** Claims the revision id globally, so the same id can never name two revisions. */
    async function writeLocator(rev) {
        const key = (0, keys_1.revisionLocatorKey)(rev.id);
        const locator = { scopeKey: rev.scopeKey, skillId: rev.skillId };
        try {
            await objects.putCreateOnly(key, locator);
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError))
                throw error;
            const existing = await objects.getJson(key, RevisionLocatorSchema);
            if (existing && !(0, canonical_json_1.sameJson)(existing.value, locator)) {
                throw new errors_1.PreconditionConflictError(key, error.condition, {
                    message: `revision id ${rev.id} already belongs to skill ${existing.value.skillId} in ${existing.value.scopeKey}`,
                    retryable: false,
                });
            }
        }
    }
    /**
     * Create-only. Writing the same revision again (a retried activity) returns the stored
     * one, even if it has moved on in its lifecycle; different content under the same id
     * is a non-retryable conflict.
     */
    async function createRevision(input) {
        const rev = (0, input_1.parseInput)(core_1.RevisionSchema, input, `revision ${String(input?.id)}`);
        if ((0, core_1.scopeKey)(rev.scope) !== rev.scopeKey) {
            throw new errors_1.InvalidStorageRequestError(`revision ${rev.id} has scopeKey ${rev.scopeKey}, but its scope maps to ${(0, core_1.scopeKey)(rev.scope)}`);
        }
        const key = (0, keys_1.revisionKey)(rev.scopeKey, rev.skillId, rev.id);
        await writeLocator(rev);
        try {
            await objects.putCreateOnly(key, rev);
            return rev;
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError))
                throw error;
            const stored = await objects.getJson(key, core_1.RevisionSchema);
            if (stored && (0, canonical_json_1.sameJson)(immutableContent(stored.value), immutableContent(rev)))
                return stored.value;
            throw new errors_1.PreconditionConflictError(key, error.condition, {
                message: `revision ${rev.id} already exists at ${key} with different content (revisions are immutable)`,
                retryable: false,
            });
        }
    }
    /** Oldest first (by createdAt, then id), each with its derived status (one pointer read). */
    async function listRevisions(scopeKey, skillId) {
        const keys = (await objects.list((0, keys_1.revisionsPrefix)(scopeKey, skillId))).filter((k) => k.endsWith('.json'));
        const revisions = await (0, map_limit_1.mapLimit)(keys, READ_CONCURRENCY, async (k) => (await objects.getJson(k, core_1.RevisionSchema))?.value);
        return withStatus(scopeKey, skillId, revisions.filter((r) => r !== undefined).sort(byCreation));
    }
    /** Key segments of the skills of a scope (equal to the skill ids, which are safe slugs). */
    async function listSkillIds(scopeKey) {
        return objects.listChildren((0, keys_1.skillsPrefix)(scopeKey));
    }
    /** Every revision of the scope in one of `statuses`, oldest first (a scan; fine at this size). */
    async function listRevisionsByStatus(scopeKey, statuses) {
        const skillIds = await listSkillIds(scopeKey);
        const perSkill = await (0, map_limit_1.mapLimit)(skillIds, READ_CONCURRENCY, (id) => listRevisions(scopeKey, id));
        return perSkill
            .flat()
            .filter((r) => statuses.includes(r.status))
            .sort(byCreation);
    }
    /** By bare id, with its derived status. */
    async function findRevision(revisionId) {
        const locator = await objects.getJson((0, keys_1.revisionLocatorKey)(revisionId), RevisionLocatorSchema);
        if (!locator)
            return undefined;
        const rev = await readRevision(locator.value.scopeKey, locator.value.skillId, revisionId);
        return rev && (await withStatus(rev.scopeKey, rev.skillId, [rev]))[0];
    }
    /**
     * Moves a revision along the lifecycle by read + If-Match write, re-reading on a lost
     * race. Already applied (same status, or this exact history entry present) is a no-op
     * that returns the stored revision, so retried activities succeed; an illegal move is
     * a non-retryable IllegalTransitionError.
     */
    async function transitionRevision(ref, transition) {
        const key = (0, keys_1.revisionKey)(ref.scopeKey, ref.skillId, ref.revisionId);
        return (0, cas_retry_1.retryOnConflict)(async () => {
            const stored = await objects.getJson(key, core_1.RevisionSchema);
            if (!stored)
                throw new errors_1.NotFoundError(key, `revision ${ref.revisionId}`);
            const rev = stored.value;
            if (alreadyApplied(rev, transition))
                return rev;
            if ((0, revision_lifecycle_1.judgeTransition)(rev.status, transition.to) === 'illegal') {
                throw new errors_1.IllegalTransitionError((0, revision_lifecycle_1.illegalTransitionMessage)(rev.id, rev.status, transition.to));
            }
            const next = (0, input_1.parseInput)(core_1.RevisionSchema, {
                ...rev,
                ...transition.patch,
                status: transition.to,
                updatedAt: transition.at,
                promotedAt: transition.patch?.promotedAt ?? (transition.to === 'active' ? transition.at : rev.promotedAt),
                history: [...rev.history, { from: rev.status, to: transition.to, at: transition.at, reason: transition.reason }],
            }, `transition of revision ${rev.id} to ${transition.to}`);
            await objects.putIfMatch(key, next, stored.etag);
            return next;
        });
    }
    return { createRevision, readRevision, listRevisions, listSkillIds, listRevisionsByStatus, findRevision, transitionRevision };
}
function immutableContent(rev) {
    const content = { ...rev };
    for (const field of exports.MUTABLE_REVISION_FIELDS)
        delete content[field];
    return content;
}
/**
 * A retry of a transition that succeeded may find the revision moved on since
 * (e.g. active, then archived): its history entry, not the status, proves it was done.
 */
function alreadyApplied(rev, t) {
    if (rev.status === t.to)
        return true;
    return rev.history.some((h) => h.to === t.to && h.at === t.at && h.reason === t.reason);
}
function byCreation(a, b) {
    const time = (Date.parse(a.createdAt) || 0) - (Date.parse(b.createdAt) || 0);
    if (time !== 0)
        return time;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
//# sourceMappingURL=revision-store.js.map