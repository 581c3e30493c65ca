import { describe, expect, it } from 'vitest';
import { bestByMean, caseLeaders, dominatedCandidates, parentWeights, paretoFronts, prngFromSeed, sampleParent, selectWinner, type ScoreRow } from '../../core/gepa';

const row = (id: string, scores: number[]): ScoreRow => ({ id, scores });

describe('per-case leaders and pruning', () => {
  // Cases:            c1   c2   c3
  const a = row('a', [1.0, 1.0, 0.2]);
  const b = row('b', [0.2, 0.2, 1.0]);
  const c = row('c', [1.0, 1.0, 0.0]);

  it('lists every candidate that reaches the best score of a case, ties included', () => {
    expect(caseLeaders([a, b, c])).toEqual([['a', 'c'], ['a', 'c'], ['b']]);
  });

  it('removes a candidate whose led cases are all covered by another survivor (the lower mean goes first)', () => {
    expect([...dominatedCandidates([a, b, c], caseLeaders([a, b, c]))]).toEqual(['c']);
    expect(paretoFronts([a, b, c])).toEqual([['a'], ['a'], ['b']]);
  });

  it('keeps a candidate that alone leads some case, even with a low mean', () => {
    const niche = row('niche', [0.0, 0.0, 0.9]);
    const strong = row('strong', [0.9, 0.9, 0.5]);
    expect(paretoFronts([strong, niche])).toEqual([['strong'], ['strong'], ['niche']]);
  });

  it('keeps only the earlier of two candidates that lead exactly the same cases with the same mean', () => {
    const first = row('first', [1, 0]);
    const twin = row('twin', [1, 0]);
    const other = row('other', [0, 1]);
    expect([...dominatedCandidates([first, twin, other], caseLeaders([first, twin, other]))]).toEqual(['twin']);
  });

  it('removes a candidate covered by the union of others, not only by a single superset', () => {
    // mid leads c1 and c2, each also led by a different specialist with a higher mean.
    const mid = row('mid', [1, 1, 0, 0]);
    const s1 = row('s1', [1, 0, 1, 1]);
    const s2 = row('s2', [0, 1, 1, 1]);
    expect(paretoFronts([mid, s1, s2])).toEqual([['s1'], ['s2'], ['s1', 's2'], ['s1', 's2']]);
  });

  it('weights each survivor by the number of cases it leads', () => {
    expect(Object.fromEntries(parentWeights([a, b, c]))).toEqual({ a: 2, b: 1 });
  });

  it('rejects rows of different widths', () => {
    expect(() => caseLeaders([row('x', [1, 2]), row('y', [1])])).toThrow(/expected 2/);
  });
});

describe('frequency-weighted parent sampling', () => {
  const pool = [row('a', [1, 1, 0.2]), row('b', [0.2, 0.2, 1]), row('c', [1, 1, 0])];

  it('samples in proportion to led cases and never a dominated candidate', () => {
    let prng = prngFromSeed(42);
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 3000; i++) {
      const r = sampleParent(pool, prng);
      prng = r.prng;
      counts[r.parentId]++;
    }
    expect(counts.c).toBe(0);
    expect(counts.a / 3000).toBeGreaterThan(0.6);
    expect(counts.a / 3000).toBeLessThan(0.73);
    expect(counts.b).toBeGreaterThan(0);
  });

  it('is deterministic for a PRNG state', () => {
    const run = (seed: number) => {
      let prng = prngFromSeed(seed);
      return Array.from({ length: 30 }, () => {
        const r = sampleParent(pool, prng);
        prng = r.prng;
        return r.parentId;
      });
    };
    expect(run(7)).toEqual(run(7));
  });

  it('returns the only candidate of a one-candidate pool', () => {
    expect(sampleParent([row('seed', [0.1, 0.3])], prngFromSeed(1)).parentId).toBe('seed');
  });
});

describe('winner selection by validation mean', () => {
  it('picks the highest mean', () => {
    const w = selectWinner([row('seed', [0.2, 0.2]), row('x', [0.9, 0.5]), row('y', [0.6, 0.6])]);
    expect(w).toEqual({ id: 'x', validationMean: 0.7, isSeed: false });
  });

  it('breaks ties toward the earliest candidate, so an equal child never displaces the seed', () => {
    expect(selectWinner([row('seed', [0.5, 0.5]), row('x', [1, 0])])).toMatchObject({ id: 'seed', isSeed: true });
    expect(bestByMean([row('p', [0.4]), row('q', [0.7]), row('r', [0.7])]).id).toBe('q');
  });
});
