"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sampleMinibatchIndices = sampleMinibatchIndices;
exports.sampleMinibatch = sampleMinibatch;
const prng_1 = require("./prng");
/**
 * Indices of a Feedback minibatch: `size` distinct positions out of `total`
 * (all of them if size ≥ total), drawn without replacement by a partial
 * Fisher–Yates shuffle. Deterministic for a given PRNG state; consumes exactly
 * min(size, total) values.
 */
function sampleMinibatchIndices(total, size, prng) {
    if (!Number.isInteger(total) || total < 0)
        throw new Error(`minibatch population must be a non-negative integer, got ${total}`);
    if (!Number.isInteger(size) || size < 1)
        throw new Error(`minibatch size must be a positive integer, got ${size}`);
    const pool = Array.from({ length: total }, (_, i) => i);
    const take = Math.min(size, total);
    let state = prng;
    for (let i = 0; i < take; i++) {
        const draw = (0, prng_1.nextInt)(state, total - i);
        state = draw.state;
        const j = i + draw.value;
        [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    return { indices: pool.slice(0, take), prng: state };
}
/** The sampled cases themselves, in sampling order. */
function sampleMinibatch(cases, size, prng) {
    const { indices, prng: next } = sampleMinibatchIndices(cases.length, size, prng);
    return { batch: indices.map((i) => cases[i]), prng: next };
}
//# sourceMappingURL=minibatch.js.map