"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StoredCursorSchema = void 0;
exports.cursorStore = cursorStore;
const errors_1 = require("./errors");
const zod_1 = require("zod");
const core_1 = require("../../core");
const cas_retry_1 = require("./cas-retry");
const input_1 = require("./input");
const keys_1 = require("./keys");
/** S3 mirror of a session's review cursor (core's cursor plus the job time that wrote it). */
exports.StoredCursorSchema = core_1.ReviewCursorSchema.extend({
    lastEventCount: zod_1.z.number().int().nonnegative(),
    updatedAt: zod_1.z.string(),
});
function cursorStore(objects) {
    async function readCursor(scopeKey, sessionId) {
        return (await readCursorVersion(scopeKey, sessionId)).cursor;
    }
    /** The cursor and its ETag (null: none stored), so the next write can skip re-reading it. */
    async function readCursorVersion(scopeKey, sessionId) {
        const stored = await objects.getJson((0, keys_1.cursorKey)(scopeKey, sessionId), exports.StoredCursorSchema);
        return { cursor: stored?.value, etag: stored?.etag ?? null };
    }
    /**
     * Never moves the mirror backwards in time: a late attempt of an old activity (Temporal
     * may retry one whose first attempt is still running) must not overwrite a newer cursor.
     * `updatedAt` is workflow time of the job that consumed the delta, and a session's jobs
     * run in order, so it orders cursors; the event count may legitimately shrink (a
     * platform that restarts a session's event list). Returns what is stored afterwards.
     */
    async function writeCursor(scopeKey, sessionId, input, readVersion) {
        const cursor = (0, input_1.parseInput)(exports.StoredCursorSchema, input, `review cursor of session ${sessionId}`);
        const key = (0, keys_1.cursorKey)(scopeKey, sessionId);
        if (readVersion) {
            // The version the caller read the cursor at: if nothing moved it since, one write.
            try {
                if (readVersion.etag === null)
                    await objects.putCreateOnly(key, cursor);
                else
                    await objects.putIfMatch(key, cursor, readVersion.etag);
                return cursor;
            }
            catch (error) {
                if (!(error instanceof errors_1.PreconditionConflictError))
                    throw error;
            }
        }
        return (0, cas_retry_1.retryOnConflict)(async () => {
            const stored = await objects.getJson(key, exports.StoredCursorSchema);
            if (stored && isLater(stored.value.updatedAt, cursor.updatedAt))
                return stored.value;
            if (stored)
                await objects.putIfMatch(key, cursor, stored.etag);
            else
                await objects.putCreateOnly(key, cursor);
            return cursor;
        });
    }
    return { readCursor, readCursorVersion, writeCursor };
}
/** By instant, not by string: `…:01Z` sorts after `…:01.500Z` as text. */
function isLater(a, b) {
    const ta = Date.parse(a);
    const tb = Date.parse(b);
    return Number.isNaN(ta) || Number.isNaN(tb) ? a > b : ta > tb;
}
//# sourceMappingURL=cursor-store.js.map