"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.mapConcurrent = mapConcurrent;
exports.chunk = chunk;
/**
 * `Promise.all(items.map(fn))` with at most `limit` calls in flight, results in input
 * order. Deterministic in a workflow: which item starts next depends only on the order
 * in which earlier calls complete, and that order is replayed from history.
 */
async function mapConcurrent(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    async function lane() {
        while (next < items.length) {
            const i = next++;
            results[i] = await fn(items[i], i);
        }
    }
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
    return results;
}
function chunk(items, size) {
    const out = [];
    for (let i = 0; i < items.length; i += size)
        out.push(items.slice(i, i + size));
    return out;
}
//# sourceMappingURL=concurrency.js.map