import { describe, expect, it } from 'vitest';
import { frontierCandidates, frontierLeaders, objectiveLeaders, prngFromSeed, prunedFronts, sampleFrontierParent, sampleParent, type FrontierCandidate } from '../../core/gepa';

const objectives = [
  { name: 'score', direction: 'maximize' as const },
  { name: 'tokens', direction: 'minimize' as const },
];
// a: accurate and expensive; b: cheap and weaker; c: dominated on every front; d: best on case 2 only.
const pool: FrontierCandidate[] = [
  { id: 'a', scores: [0.9, 0.8, 0.5], objectives: { tokens: 900 } },
  { id: 'b', scores: [0.6, 0.6, 0.5], objectives: { tokens: 200 } },
  { id: 'c', scores: [0.5, 0.5, 0.4], objectives: { tokens: 500 } },
  { id: 'd', scores: [0.2, 0.2, 0.7] },
];

describe('frontiers: instance, objective, hybrid', () => {
  it('instance: one front per validation case', () => {
    expect(frontierLeaders(pool, { type: 'instance', objectives })).toEqual([['a'], ['a'], ['d']]);
  });

  it('objective: one front per objective, in its direction; an objective nobody reports has no front', () => {
    expect(objectiveLeaders(pool, objectives)).toEqual([['a'], ['b']]);
    expect(objectiveLeaders(pool, [...objectives, { name: 'latency', direction: 'minimize' }])).toEqual([['a'], ['b']]);
    // The cheap candidate b survives only on the objective frontier.
    expect(frontierCandidates(pool, { type: 'instance', objectives })).toEqual(['a', 'd']);
    expect(frontierCandidates(pool, { type: 'objective', objectives })).toEqual(['a', 'b']);
  });

  it('hybrid: case fronts and objective fronts together, dominated candidates pruned', () => {
    expect(frontierLeaders(pool, { type: 'hybrid', objectives })).toEqual([['a'], ['a'], ['d'], ['a'], ['b']]);
    expect(frontierCandidates(pool, { type: 'hybrid', objectives })).toEqual(['a', 'b', 'd']);
    // Ties all lead; a tie on every front it leads makes the weaker twin dominated.
    const twins: FrontierCandidate[] = [
      { id: 'x', scores: [1, 0], objectives: { tokens: 5 } },
      { id: 'y', scores: [1, 0], objectives: { tokens: 5 } },
      { id: 'z', scores: [0, 1], objectives: { tokens: 9 } },
    ];
    // All three tie on the mean score; y adds nothing x does not lead, so y goes.
    expect(prunedFronts(twins, { type: 'hybrid', objectives })).toEqual([['x'], ['z'], ['x', 'z'], ['x']]);
  });

  it('samples parents in proportion to the fronts they lead; instance sampling is the original one', () => {
    const counts = new Map<string, number>();
    let prng = prngFromSeed(5);
    for (let i = 0; i < 3000; i++) {
      const draw = sampleFrontierParent(pool, { type: 'hybrid', objectives }, prng);
      prng = draw.prng;
      counts.set(draw.parentId, (counts.get(draw.parentId) ?? 0) + 1);
    }
    // Tickets: a ×3 (two cases + score), d ×1, b ×1.
    expect(counts.get('a')! / 3000).toBeCloseTo(0.6, 1);
    expect(counts.get('b')! / 3000).toBeCloseTo(0.2, 1);
    expect(counts.has('c')).toBe(false);
    for (const seed of [1, 2, 3, 99]) {
      expect(sampleFrontierParent(pool, { type: 'instance', objectives }, prngFromSeed(seed))).toEqual(sampleParent(pool, prngFromSeed(seed)));
    }
  });
});
