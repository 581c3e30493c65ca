"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mapLimit = mapLimit;
/** `Promise.all(items.map(fn))` with at most `limit` calls in flight; results keep input order. */
async function mapLimit(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    async function worker() {
        while (next < items.length) {
            const i = next++;
            results[i] = await fn(items[i]);
        }
    }
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
    return results;
}
//# sourceMappingURL=map-limit.js.map