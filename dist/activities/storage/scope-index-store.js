"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ScopeIndexSchema = exports.ScopeIndexEntrySchema = void 0;
exports.scopeIndexStore = scopeIndexStore;
const zod_1 = require("zod");
const core_1 = require("../../core");
const cas_retry_1 = require("./cas-retry");
const keys_1 = require("./keys");
const map_limit_1 = require("./map-limit");
const object_store_1 = require("./object-store");
exports.ScopeIndexEntrySchema = zod_1.z.object({
    skillId: zod_1.z.string(),
    name: zod_1.z.string(),
    description: zod_1.z.string(),
    revisionId: zod_1.z.string(),
});
/**
 * Every active skill of a scope, for agents (progressive disclosure: index first, body on
 * demand). Derived from the active pointers and rewritten only when a rebuild runs (after
 * a publication), so between publications an agent's conditional GET is a 304.
 */
exports.ScopeIndexSchema = zod_1.z.object({
    scopeKey: zod_1.z.string(),
    /** +1 on every write, so every write has a new ETag (see rebuildScopeIndex). */
    generation: zod_1.z.number().int().nonnegative(),
    skills: zod_1.z.array(exports.ScopeIndexEntrySchema),
});
function scopeIndexStore(objects, pointers, listSkillIds) {
    async function collectSkills(scopeKey) {
        const skillIds = await listSkillIds(scopeKey);
        const pointerReads = await (0, map_limit_1.mapLimit)(skillIds, 8, (id) => pointers.readActive(scopeKey, id));
        return pointerReads
            .map((read) => read?.pointer)
            .filter(core_1.isLivePointer)
            .map((p) => ({ skillId: p.skillId, name: p.spec.name, description: p.spec.description, revisionId: p.revisionId }))
            .sort((a, b) => (a.skillId < b.skillId ? -1 : a.skillId > b.skillId ? 1 : 0));
    }
    /**
     * Rebuilds the index from the pointers so that concurrent rebuilds converge: the last
     * rebuild to start sees every publication that completed before it.
     * - The index ETag is read *before* the pointers are listed and the write is
     *   conditional on it, so a write lands only if no other rebuild wrote since our read,
     *   i.e. since before our listing: a rebuild that listed earlier (and may have missed a
     *   publication) always loses to one that listed later. (Listing first, then reading
     *   the ETag, would let a stale listing win.)
     * - Every write bumps `generation`, even when the skills are unchanged. Otherwise a
     *   rebuild that finds nothing to change (or rewrites identical bytes, keeping the
     *   ETag) would leave a slower rebuild's ETag valid: if that one listed while a
     *   pointer was briefly B (A → B → A), its stale B would land last.
     */
    async function rebuildScopeIndex(scopeKey) {
        const key = (0, keys_1.scopeIndexKey)(scopeKey);
        return (0, cas_retry_1.retryOnConflict)(async () => {
            const current = await objects.getJson(key, exports.ScopeIndexSchema);
            const skills = await collectSkills(scopeKey);
            const index = { scopeKey, generation: (current?.value.generation ?? 0) + 1, skills };
            const { etag } = current ? await objects.putIfMatch(key, index, current.etag) : await objects.putCreateOnly(key, index);
            return { index, etag };
        }, { attempts: 30 });
    }
    /** One conditional GET; undefined when the scope has never been indexed (no skills). */
    async function readScopeIndex(scopeKey, ifNoneMatch) {
        const key = (0, keys_1.scopeIndexKey)(scopeKey);
        const got = await objects.getText(key, ifNoneMatch);
        if (!got || got.notModified)
            return got;
        return { index: (0, object_store_1.parseJson)(key, got.value, exports.ScopeIndexSchema), etag: got.etag };
    }
    return { rebuildScopeIndex, readScopeIndex };
}
//# sourceMappingURL=scope-index-store.js.map