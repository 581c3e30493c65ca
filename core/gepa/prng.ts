import { sha256Bytes, utf8Bytes } from '../skills/hash';

/**
 * The whole state of the search's random generator: one unsigned 32-bit integer.
 * It is plain JSON, so the workflow keeps it in its state and passes it through
 * continue-as-new; the same state always yields the same sequence.
 */
export interface PrngState {
  s: number;
}

/** Folds any integer seed (negative or beyond 32 bits too) into an initial state. */
export function prngFromSeed(seed: number): PrngState {
  if (!Number.isSafeInteger(seed)) throw new Error(`random seed must be a safe integer, got ${seed}`);
  const low = seed >>> 0;
  const high = Math.floor(seed / 0x1_0000_0000) >>> 0;
  return { s: (Math.imul(high, 0x9e3779b9) ^ low) >>> 0 };
}

/** mulberry32: one step gives a uniform 32-bit value and the next state. */
export function nextUint32(state: PrngState): { value: number; state: PrngState } {
  const s = (state.s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: (t ^ (t >>> 14)) >>> 0, state: { s } };
}

/** Uniform float in [0, 1). */
export function nextFloat(state: PrngState): { value: number; state: PrngState } {
  const r = nextUint32(state);
  return { value: r.value / 0x1_0000_0000, state: r.state };
}

/** Uniform integer in [0, n). */
export function nextInt(state: PrngState, n: number): { value: number; state: PrngState } {
  if (!Number.isInteger(n) || n <= 0) throw new Error(`nextInt needs a positive integer bound, got ${n}`);
  const r = nextFloat(state);
  return { value: Math.floor(r.value * n), state: r.state };
}

/** Mutable convenience wrapper for code that draws several values in a row. */
export class Prng {
  private state: PrngState;

  constructor(state: PrngState) {
    this.state = { s: state.s >>> 0 };
  }

  static fromSeed(seed: number): Prng {
    return new Prng(prngFromSeed(seed));
  }

  static restore(state: PrngState): Prng {
    return new Prng(state);
  }

  snapshot(): PrngState {
    return { s: this.state.s };
  }

  nextUint32(): number {
    const r = nextUint32(this.state);
    this.state = r.state;
    return r.value;
  }

  nextFloat(): number {
    const r = nextFloat(this.state);
    this.state = r.state;
    return r.value;
  }

  nextInt(n: number): number {
    const r = nextInt(this.state, n);
    this.state = r.state;
    return r.value;
  }
}

/** A uniform unsigned 32-bit hash of `text` (the first 4 bytes of its SHA-256). */
export function hash32(text: string): number {
  const d = sha256Bytes(utf8Bytes(text));
  return ((d[0] << 24) | (d[1] << 16) | (d[2] << 8) | d[3]) >>> 0;
}

/**
 * A seed for the evaluator, derived from the experiment's base seed and a stream
 * (an iteration number for paired minibatch seeds, or a label such as "validation").
 * It does not consume the PRNG, so it does not depend on how the search went.
 * Values are integers in [0, 2^31) so every language's int type can hold them.
 */
export function deriveSeed(baseSeed: number, stream: number | string): number {
  return hash32(`gepa-seed:${baseSeed}:${typeof stream}:${stream}`) & 0x7fffffff;
}
