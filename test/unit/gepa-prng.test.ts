import { describe, expect, it } from 'vitest';
import { deriveSeed, nextFloat, nextInt, Prng, prngFromSeed, sampleMinibatch, sampleMinibatchIndices } from '../../core/gepa';

function draw(prng: Prng, n: number): number[] {
  return Array.from({ length: n }, () => prng.nextUint32());
}

describe('seeded PRNG', () => {
  it('gives the same sequence for the same seed and different ones for different seeds', () => {
    expect(draw(Prng.fromSeed(7), 20)).toEqual(draw(Prng.fromSeed(7), 20));
    expect(draw(Prng.fromSeed(7), 20)).not.toEqual(draw(Prng.fromSeed(8), 20));
    expect(draw(Prng.fromSeed(-7), 5)).not.toEqual(draw(Prng.fromSeed(7), 5));
  });

  it('continues exactly where a snapshot left off, through a JSON round trip', () => {
    const original = Prng.fromSeed(42);
    draw(original, 13);
    const snapshot = JSON.parse(JSON.stringify(original.snapshot()));
    const restored = Prng.restore(snapshot);
    expect(draw(restored, 50)).toEqual(draw(original, 50));
  });

  it('pure steps never mutate their input state', () => {
    const state = prngFromSeed(3);
    const a = nextFloat(state);
    const b = nextFloat(state);
    expect(state).toEqual(prngFromSeed(3));
    expect(a).toEqual(b);
    expect(a.state).not.toEqual(state);
  });

  it('draws floats in [0,1) and integers in [0,n) that cover the range', () => {
    const prng = Prng.fromSeed(1);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const f = prng.nextFloat();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      seen.add(prng.nextInt(6));
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(() => nextInt(prngFromSeed(1), 0)).toThrow(/positive integer/);
  });

  it('derives evaluator seeds that are stable, distinct per stream and portable int31 values', () => {
    expect(deriveSeed(1, 0)).toBe(deriveSeed(1, 0));
    const seeds = new Set([deriveSeed(1, 0), deriveSeed(1, 1), deriveSeed(1, 2), deriveSeed(2, 0), deriveSeed(1, 'validation'), deriveSeed(1, 'holdout')]);
    expect(seeds.size).toBe(6);
    for (const s of seeds) {
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(2 ** 31);
    }
    // A numeric stream and its string spelling are different streams.
    expect(deriveSeed(1, 3)).not.toBe(deriveSeed(1, '3'));
  });
});

describe('feedback minibatch sampling', () => {
  it('is deterministic for a PRNG state and samples without replacement', () => {
    const a = sampleMinibatchIndices(10, 3, prngFromSeed(9));
    const b = sampleMinibatchIndices(10, 3, prngFromSeed(9));
    expect(a).toEqual(b);
    expect(new Set(a.indices).size).toBe(3);
    for (const i of a.indices) {
      expect(i).toBeGreaterThanOrEqual(0);
      expect(i).toBeLessThan(10);
    }
  });

  it('advances the PRNG so consecutive minibatches differ', () => {
    const first = sampleMinibatchIndices(20, 4, prngFromSeed(5));
    const second = sampleMinibatchIndices(20, 4, first.prng);
    expect(second.indices).not.toEqual(first.indices);
  });

  it('takes every case (in shuffled order) when the batch is larger than the split', () => {
    const { batch } = sampleMinibatch(['a', 'b', 'c'], 5, prngFromSeed(2));
    expect([...batch].sort()).toEqual(['a', 'b', 'c']);
  });

  it('spreads its choices over the whole split', () => {
    let state = prngFromSeed(11);
    const counts = new Array(6).fill(0);
    for (let i = 0; i < 600; i++) {
      const r = sampleMinibatchIndices(6, 2, state);
      state = r.prng;
      for (const idx of r.indices) counts[idx]++;
    }
    for (const c of counts) expect(c).toBeGreaterThan(120);
  });

  it('rejects a non-positive batch size', () => {
    expect(() => sampleMinibatchIndices(5, 0, prngFromSeed(1))).toThrow(/minibatch size/);
  });
});
