"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StoredCursorSchema = void 0;
exports.cursorStore = cursorStore;
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
        return (await objects.getJson((0, keys_1.cursorKey)(scopeKey, sessionId), exports.StoredCursorSchema))?.value;
    }
    /**
     * Never moves the mirror backwards in time: a late attempt of an old activity (Temporal
     * may retry one whose first attempt is still running) must not overwrite a newer cursor.
     * `updatedAt` is workflow time of the job that consumed the delta, and a session's jobs
     * run in order, so it orders cursors; the event count may legitimately shrink (a
     * platform that restarts a session's event list). Returns what is stored afterwards.
     */
    async function writeCursor(scopeKey, sessionId, input) {
        const cursor = (0, input_1.parseInput)(exports.StoredCursorSchema, input, `review cursor of session ${sessionId}`);
        const key = (0, keys_1.cursorKey)(scopeKey, sessionId);
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
    return { readCursor, writeCursor };
}
/** By instant, not by string: `…:01Z` sorts after `…:01.500Z` as text. */
function isLater(a, b) {
    const ta = Date.parse(a);
    const tb = Date.parse(b);
    return Number.isNaN(ta) || Number.isNaN(tb) ? a > b : ta > tb;
}
//# sourceMappingURL=cursor-store.js.map