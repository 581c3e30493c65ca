"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.tombstonePointer = tombstonePointer;
exports.pointerStore = pointerStore;
const core_1 = require("../../core");
const canonical_json_1 = require("./canonical-json");
const errors_1 = require("./errors");
const input_1 = require("./input");
const keys_1 = require("./keys");
/** The pointer that records an approved delete (readers see "no active skill"). */
function tombstonePointer(fields) {
    return { managed: true, seq: 0, recent: [], ...fields, deleted: true };
}
/**
 * The active pointer, the single source of truth for what is published (invariant 2).
 * It only ever changes by one conditional PUT.
 */
function pointerStore(objects) {
    /** The raw pointer, tombstones included (a writer needs their ETag); see `isLivePointer`. */
    async function readActive(scopeKey, skillId) {
        const stored = await objects.getJson((0, keys_1.activeKey)(scopeKey, skillId), core_1.ActivePointerSchema);
        return stored && { pointer: stored.value, etag: stored.etag };
    }
    /**
     * `expectedEtag: null` is the first write (`If-None-Match: *`), otherwise `If-Match`.
     * A lost race is a PreconditionConflictError; the caller re-reads and decides. If the
     * stored pointer already equals `pointer` (our own earlier attempt whose response was
     * lost), that is success.
     */
    async function writeActive(scopeKey, skillId, input, expectedEtag) {
        const pointer = (0, input_1.parseInput)(core_1.ActivePointerSchema, input, `active pointer for skill ${skillId}`);
        if (pointer.skillId !== skillId) {
            throw new errors_1.InvalidStorageRequestError(`active pointer names skill ${pointer.skillId} but is written for skill ${skillId}`);
        }
        const key = (0, keys_1.activeKey)(scopeKey, skillId);
        try {
            const { etag } = expectedEtag === null ? await objects.putCreateOnly(key, pointer) : await objects.putIfMatch(key, pointer, expectedEtag);
            return { pointer, etag };
        }
        catch (error) {
            if (!(error instanceof errors_1.PreconditionConflictError))
                throw error;
            const current = await readActive(scopeKey, skillId);
            if (current && (0, canonical_json_1.sameJson)(current.pointer, pointer))
                return current;
            // Either way another writer moved the pointer: re-reading may succeed.
            throw new errors_1.PreconditionConflictError(key, error.condition, {
                message: `active pointer ${key} changed concurrently (${expectedEtag === null ? 'it already exists' : `expected ETag ${expectedEtag}`})`,
                retryable: true,
                cause: error,
            });
        }
    }
    return { readActive, writeActive };
}
//# sourceMappingURL=pointer-store.js.map