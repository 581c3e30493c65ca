"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScopeIndexSchema = exports.ScopeIndexEntrySchema = void 0;
exports.indexChangeFor = indexChangeFor;
exports.scopeIndexStore = scopeIndexStore;
const zod_1 = require("zod");
const core_1 = require("../../core");
const cas_retry_1 = require("./cas-retry");
const errors_1 = require("./errors");
const keys_1 = require("./keys");
const map_limit_1 = require("./map-limit");
const object_store_1 = require("./object-store");
exports.ScopeIndexEntrySchema = zod_1.z.object({
    skillId: zod_1.z.string(),
    name: zod_1.z.string(),
    description: zod_1.z.string(),
    revisionId: zod_1.z.string(),
    managed: zod_1.z.boolean().default(true),
    /** Seq of the pointer this entry was derived from (highest wins). */
    seq: zod_1.z.number().int().nonnegative().default(0),
});
/**
 * Every live skill of a scope, for agents (progressive disclosure: index first, body on
 * demand) and for the reconciler (names of the whole scope). Derived from the active
 * pointers and written only by the scope's index workflow (one writer per scope, one
 * write per burst of publications), so between publications an agent's conditional GET
 * is a 304.
 */
exports.ScopeIndexSchema = zod_1.z.object({
    scopeKey: zod_1.z.string(),
    /** +1 on every write. */
    generation: zod_1.z.number().int().nonnegative(),
    skills: zod_1.z.array(exports.ScopeIndexEntrySchema),
    removed: zod_1.z.array(zod_1.z.object({ skillId: zod_1.z.string(), seq: zod_1.z.number().int().nonnegative() })).default([]),
});
/** The index change a pointer stands for. */
function indexChangeFor(pointer) {
    if (!(0, core_1.isLivePointer)(pointer))
        return { skillId: pointer.skillId, seq: pointer.seq, revisionId: pointer.revisionId };
    return {
        skillId: pointer.skillId,
        seq: pointer.seq,
        revisionId: pointer.revisionId,
        entry: { name: pointer.spec.name, description: pointer.spec.description, managed: pointer.managed },
        markdown: (0, core_1.renderSkillMarkdown)(pointer.spec),
    };
}
const CACHED_SCOPES = 256;
function scopeIndexStore(objects, pointers, listSkillIds) {
    // Last index seen per scope, by ETag: the single writer writes If-Match without re-reading,
    // and a job re-reads the snapshot its review was prepared from without a request.
    const cache = new Map();
    function remember(scopeKey, value) {
        cache.delete(scopeKey);
        cache.set(scopeKey, value);
        if (cache.size > CACHED_SCOPES)
            cache.delete(cache.keys().next().value);
    }
    /** One conditional GET; undefined when the scope has never been indexed (no skills). */
    async function readScopeIndex(scopeKey, ifNoneMatch) {
        const key = (0, keys_1.scopeIndexKey)(scopeKey);
        const got = await objects.getText(key, ifNoneMatch);
        if (!got || got.notModified)
            return got;
        const read = { index: (0, object_store_1.parseJson)(key, got.value, exports.ScopeIndexSchema), etag: got.etag };
        remember(scopeKey, read);
        return read;
    }
    /** The index with this ETag if this process has it, else the current one (one GET). */
    async function scopeIndexSnapshot(scopeKey, etag) {
        const cached = cache.get(scopeKey);
        if (etag && cached?.etag === etag)
            return cached.index;
        const read = await readScopeIndex(scopeKey);
        return read && !read.notModified ? read.index : undefined;
    }
    /** Read-modify-write of the index by If-Match, starting from the cached copy (no GET when it is current). */
    async function updateIndex(scopeKey, change) {
        const key = (0, keys_1.scopeIndexKey)(scopeKey);
        let base = cache.get(scopeKey);
        return (0, cas_retry_1.retryOnConflict)(async () => {
            if (!base) {
                const read = await readScopeIndex(scopeKey);
                base = read && !read.notModified ? read : undefined;
            }
            const next = change(base?.index ?? { skills: [], removed: [] });
            if (!next.changed)
                return next.applied;
            const index = { scopeKey, generation: (base?.index.generation ?? 0) + 1, skills: next.skills, removed: next.removed };
            try {
                const { etag } = base ? await objects.putIfMatch(key, index, base.etag) : await objects.putCreateOnly(key, index);
                remember(scopeKey, { index, etag });
                return next.applied;
            }
            catch (error) {
                if (error instanceof errors_1.PreconditionConflictError)
                    base = undefined;
                throw error;
            }
        });
    }
    /** Applies a burst of pointer changes in one conditional write; returns the changes that were newer than the index. */
    async function applyScopeIndexChanges(scopeKey, changes) {
        return updateIndex(scopeKey, (content) => (0, core_1.applyIndexChanges)(content, changes));
    }
    /**
     * Full reconcile from the pointers (repairs drift and lost changes): lists the scope's
     * skills, reads every pointer (`progress` is called as they are read, for heartbeats),
     * and writes the index if anything differs. Returns the changes that were applied.
     */
    async function reconcileScopeIndex(scopeKey, pending = [], progress = () => { }) {
        const skillIds = await listSkillIds(scopeKey);
        let done = 0;
        const reads = await (0, map_limit_1.mapLimit)(skillIds, 8, async (id) => {
            const read = await pointers.readActive(scopeKey, id);
            progress(++done, skillIds.length);
            return read;
        });
        const fromPointers = [...reads.flatMap((r) => (r ? [indexChangeFor(r.pointer)] : [])), ...pending];
        return updateIndex(scopeKey, (content) => (0, core_1.reconcileIndex)(content, fromPointers));
    }
    return { readScopeIndex, scopeIndexSnapshot, applyScopeIndexChanges, reconcileScopeIndex };
}
//# sourceMappingURL=scope-index-store.js.map