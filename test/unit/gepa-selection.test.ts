import { describe, expect, it } from 'vitest';
import { kFoldSelection, multiSeedWinner, selectFinalists, selectWinner, type ScoreRow } from '../../core/gepa';

const identity = (p: number[]) => p;

describe('selection that generalises', () => {
  // 'lucky' wins the plain Validation mean through one case; 'steady' is better on most cases.
  const pool: ScoreRow[] = [
    { id: 'seed', scores: [0.5, 0.5, 0.5, 0.5, 0.5, 0.5] },
    { id: 'lucky', scores: [1, 1, 1, 0.55, 0.55, 0.55] },
    { id: 'steady', scores: [0.7, 0.7, 0.7, 0.7, 0.7, 0.9] },
  ];

  it('k-fold: each fold is chosen on the other folds and scored on itself; the most-chosen candidate wins', () => {
    expect(selectWinner(pool).id).toBe('lucky');
    // Folds by position mod 3: {0,3}, {1,4}, {2,5}. On the other folds lucky averages 0.775, steady 0.75 or 0.7.
    const r = kFoldSelection(pool, 3, identity);
    expect(r.folds.map((f) => f.chosenId)).toEqual(['lucky', 'lucky', 'lucky']);
    expect(r.folds.map((f) => f.caseCount)).toEqual([2, 2, 2]);
    expect(r.winner).toMatchObject({ id: 'lucky', isSeed: false });
    expect(r.crossValidatedMean).toBeCloseTo((0.775 + 0.775 + 0.775) / 3, 10);
    // Two folds, dealt from this shuffle: {0,1,2} and {3,4,5}. Chosen on {3,4,5} (where lucky is weak), steady;
    // chosen on {0,1,2}, lucky. One vote each: the higher validation mean wins, and the
    // held-out estimate (0.7 and 0.55) is well below lucky's in-sample 0.775.
    const halves = kFoldSelection(pool, 2, () => [0, 3, 1, 4, 2, 5]);
    expect(halves.folds.map((f) => f.chosenId)).toEqual(['steady', 'lucky']);
    expect(halves.winner.id).toBe('lucky');
    expect(halves.crossValidatedMean).toBeCloseTo((0.7 + 0.55) / 2, 10);
    const skew: ScoreRow[] = [pool[0], { id: 'lucky', scores: [1, 1, 0.4, 0.4, 0.4, 0.4] }, { id: 'steady', scores: [0.6, 0.6, 0.6, 0.6, 0.6, 0.6] }];
    const k = kFoldSelection(skew, 3, identity);
    expect(selectWinner(skew).id).toBe('lucky'); // 0.6 vs 0.6: the earlier wins a tie
    expect(k.winner.id).toBe('steady');
    expect(k.folds.every((f) => f.heldOutMean > 0)).toBe(true);
  });

  it('k-fold: the shuffle decides the folds, ties go to the higher mean, then the earlier candidate', () => {
    expect(() => kFoldSelection(pool, 7, identity)).toThrow(/folds ≤ 6/);
    const equal: ScoreRow[] = [
      { id: 'seed', scores: [0.5, 0.5] },
      { id: 'x', scores: [0.5, 0.5] },
    ];
    expect(kFoldSelection(equal, 2, identity).winner).toMatchObject({ id: 'seed', isSeed: true });
  });

  it('multi-seed: finalists by validation mean, winner by the mean over every seed’s run', () => {
    expect(selectFinalists(pool, 2)).toEqual(['lucky', 'steady']);
    expect(selectFinalists(pool, 5)).toEqual(['seed', 'lucky', 'steady']);
    const runs = new Map<string, number[][]>([
      ['lucky', [pool[1].scores as number[], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [0.6, 0.6, 0.6, 0.6, 0.6, 0.6]]],
      ['steady', [pool[2].scores as number[], [0.7, 0.7, 0.7, 0.7, 0.7, 0.7], [0.72, 0.72, 0.72, 0.72, 0.72, 0.72]]],
    ]);
    const r = multiSeedWinner(pool, ['lucky', 'steady'], runs);
    expect(r.winner).toMatchObject({ id: 'steady', validationMean: pool[2].scores.reduce((a, b) => a + b) / 6 });
    expect(r.means.map((m) => m.id)).toEqual(['lucky', 'steady']);
    expect(() => multiSeedWinner(pool, ['seed'], runs)).toThrow(/no validation runs for finalist seed/);
  });
});
