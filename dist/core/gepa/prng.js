"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Prng = void 0;
exports.prngFromSeed = prngFromSeed;
exports.nextUint32 = nextUint32;
exports.nextFloat = nextFloat;
exports.nextInt = nextInt;
exports.hash32 = hash32;
exports.deriveSeed = deriveSeed;
const hash_1 = require("../skills/hash");
/** Folds any integer seed (negative or beyond 32 bits too) into an initial state. */
function prngFromSeed(seed) {
    if (!Number.isSafeInteger(seed))
        throw new Error(`random seed must be a safe integer, got ${seed}`);
    const low = seed >>> 0;
    const high = Math.floor(seed / 0x1_0000_0000) >>> 0;
    return { s: (Math.imul(high, 0x9e3779b9) ^ low) >>> 0 };
}
/** mulberry32: one step gives a uniform 32-bit value and the next state. */
function nextUint32(state) {
    const s = (state.s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return { value: (t ^ (t >>> 14)) >>> 0, state: { s } };
}
/** Uniform float in [0, 1). */
function nextFloat(state) {
    const r = nextUint32(state);
    return { value: r.value / 0x1_0000_0000, state: r.state };
}
/** Uniform integer in [0, n). */
function nextInt(state, n) {
    if (!Number.isInteger(n) || n <= 0)
        throw new Error(`nextInt needs a positive integer bound, got ${n}`);
    const r = nextFloat(state);
    return { value: Math.floor(r.value * n), state: r.state };
}
/** Mutable convenience wrapper for code that draws several values in a row. */
class Prng {
    state;
    constructor(state) {
        this.state = { s: state.s >>> 0 };
    }
    static fromSeed(seed) {
        return new Prng(prngFromSeed(seed));
    }
    static restore(state) {
        return new Prng(state);
    }
    snapshot() {
        return { s: this.state.s };
    }
    nextUint32() {
        const r = nextUint32(this.state);
        this.state = r.state;
        return r.value;
    }
    nextFloat() {
        const r = nextFloat(this.state);
        this.state = r.state;
        return r.value;
    }
    nextInt(n) {
        const r = nextInt(this.state, n);
        this.state = r.state;
        return r.value;
    }
}
exports.Prng = Prng;
/** A uniform unsigned 32-bit hash of `text` (the first 4 bytes of its SHA-256). */
function hash32(text) {
    const d = (0, hash_1.sha256Bytes)((0, hash_1.utf8Bytes)(text));
    return ((d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]) >>> 0;
}
/**
 * A seed for the evaluator, derived from the experiment's base seed and a stream
 * (an iteration number for paired minibatch seeds, or a label such as "validation").
 * It does not consume the PRNG, so it does not depend on how the search went.
 * Values are integers in [0, 2^31) so every language's int type can hold them.
 */
function deriveSeed(baseSeed, stream) {
    return hash32(`gepa-seed:${baseSeed}:${typeof stream}:${stream}`) & 0x7fffffff;
}
//# sourceMappingURL=prng.js.map