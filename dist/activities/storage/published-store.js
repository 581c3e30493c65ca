"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.publishedStore = publishedStore;
const keys_1 = require("./keys");
/** The materialized SKILL.md: derived from the active pointer and repairable, so written unconditionally. */
function publishedStore(objects) {
    async function writePublished(scopeKey, skillId, markdown) {
        return objects.put((0, keys_1.publishedKey)(scopeKey, skillId), markdown);
    }
    async function deletePublished(scopeKey, skillId) {
        await objects.delete((0, keys_1.publishedKey)(scopeKey, skillId));
    }
    /** Pass the last ETag as `ifNoneMatch` for a cheap refresh; undefined when nothing is published. */
    async function readPublished(scopeKey, skillId, ifNoneMatch) {
        const got = await objects.getText((0, keys_1.publishedKey)(scopeKey, skillId), ifNoneMatch);
        if (!got || got.notModified)
            return got;
        return { markdown: got.value, etag: got.etag };
    }
    return { writePublished, deletePublished, readPublished };
}
//# sourceMappingURL=published-store.js.map