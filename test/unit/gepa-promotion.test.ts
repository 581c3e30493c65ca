import { describe, expect, it } from 'vitest';
import { assessPromotion, compareHoldout } from '../../core/gepa';

const holdoutCases = [
  { id: 'h1', critical: false },
  { id: 'h2', critical: true },
  { id: 'h3', critical: false },
  { id: 'h4', critical: true },
];
const base = { winnerIsSeed: false, holdoutCases, minHoldoutImprovement: 0 };

describe('holdout promotion assessment', () => {
  it('is eligible when the mean improves enough and no critical case regresses', () => {
    const a = assessPromotion({ ...base, seedHoldoutScores: [0.5, 0.5, 0.5, 0.5], winnerHoldoutScores: [0.7, 0.5, 0.9, 0.6] });
    expect(a.eligible).toBe(true);
    expect(a.reason).toMatch(/^holdout requirements satisfied: mean 0\.5000 → 0\.6750 \(delta \+0\.1750 ≥ 0\.0000\)/);
    expect(a.holdout).toEqual({
      caseCount: 4,
      seedMean: 0.5,
      winnerMean: expect.closeTo(0.675, 12),
      delta: expect.closeTo(0.175, 12),
      criticalRegressions: [],
    });
  });

  it('blocks a critical holdout regression even when the mean improves a lot', () => {
    const a = assessPromotion({ ...base, seedHoldoutScores: [0.1, 0.8, 0.1, 0.8], winnerHoldoutScores: [1, 0.79, 1, 0.8] });
    expect(a.holdout?.delta).toBeGreaterThan(0.4);
    expect(a.eligible).toBe(false);
    expect(a.reason).toBe('critical holdout case regressed: h2');
    expect(a.holdout?.criticalRegressions).toEqual(['h2']);
  });

  it('ignores regressions on non-critical cases', () => {
    const a = assessPromotion({ ...base, seedHoldoutScores: [0.9, 0.5, 0.2, 0.5], winnerHoldoutScores: [0.1, 0.5, 1, 0.5] });
    expect(a.eligible).toBe(true);
  });

  it('respects the minimum improvement', () => {
    const scores = { seedHoldoutScores: [0.5, 0.5, 0.5, 0.5], winnerHoldoutScores: [0.6, 0.5, 0.6, 0.5] }; // delta 0.05
    expect(assessPromotion({ ...base, ...scores, minHoldoutImprovement: 0.05 }).eligible).toBe(true);
    const strict = assessPromotion({ ...base, ...scores, minHoldoutImprovement: 0.1 });
    expect(strict.eligible).toBe(false);
    expect(strict.reason).toBe('holdout delta +0.0500 is below the required 0.1000');
  });

  it('with the default minimum 0, a winner may not do worse than the seed on holdout', () => {
    const a = assessPromotion({ ...base, seedHoldoutScores: [0.6, 0.5, 0.6, 0.5], winnerHoldoutScores: [0.5, 0.5, 0.6, 0.5] });
    expect(a.eligible).toBe(false);
    expect(a.reason).toMatch(/^holdout delta -0\.0250 is below the required 0\.0000$/);
  });

  it('names every failed requirement at once', () => {
    const a = assessPromotion({ ...base, minHoldoutImprovement: 0.2, seedHoldoutScores: [0.5, 0.9, 0.5, 0.9], winnerHoldoutScores: [0.6, 0.8, 0.6, 0.7] });
    expect(a.reason).toBe('holdout delta -0.0250 is below the required 0.2000; critical holdout cases regressed: h2, h4');
  });

  it('is never eligible when validation selected the seed', () => {
    const a = assessPromotion({ ...base, winnerIsSeed: true, seedHoldoutScores: [0.5, 0.5, 0.5, 0.5], winnerHoldoutScores: [0.5, 0.5, 0.5, 0.5] });
    expect(a.eligible).toBe(false);
    expect(a.reason).toMatch(/^validation selected the seed skill/);
    expect(a.holdout?.delta).toBe(0);
  });

  it('is never eligible without a holdout split', () => {
    const a = assessPromotion({ ...base, holdoutCases: [], seedHoldoutScores: [], winnerHoldoutScores: [] });
    expect(a).toEqual({ eligible: false, reason: 'no holdout split configured: the winner cannot be confirmed on unseen cases', holdout: undefined });
  });

  it('requires scores aligned with the holdout cases', () => {
    expect(() => compareHoldout({ holdoutCases, seedHoldoutScores: [1], winnerHoldoutScores: [1, 1, 1, 1] })).toThrow(/align/);
  });
});
