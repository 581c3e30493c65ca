import type { Case, HoldoutComparison } from '../schemas/gepa';
import { meanScore } from './pareto';

/** Means are compared with this slack so float rounding cannot flip a decision. */
const EPSILON = 1e-9;

export interface PromotionInput {
  winnerIsSeed: boolean;
  holdoutCases: readonly Pick<Case, 'id' | 'critical'>[];
  /** Seed and winner Holdout scores, aligned with `holdoutCases`, from one paired seed. */
  seedHoldoutScores: readonly number[];
  winnerHoldoutScores: readonly number[];
  minHoldoutImprovement: number;
}

export interface PromotionAssessment {
  eligible: boolean;
  reason: string;
  holdout?: HoldoutComparison;
}

function signed(n: number): string {
  return (n >= 0 ? '+' : '') + n.toFixed(4);
}

/** Holdout seed-vs-winner summary, including every Critical case where the winner scored lower. */
export function compareHoldout(input: Omit<PromotionInput, 'winnerIsSeed' | 'minHoldoutImprovement'>): HoldoutComparison {
  const n = input.holdoutCases.length;
  if (input.seedHoldoutScores.length !== n || input.winnerHoldoutScores.length !== n) {
    throw new Error(`holdout scores must align with the ${n} holdout cases`);
  }
  const seedMean = meanScore(input.seedHoldoutScores);
  const winnerMean = meanScore(input.winnerHoldoutScores);
  const criticalRegressions = input.holdoutCases.filter((c, i) => c.critical && input.winnerHoldoutScores[i] < input.seedHoldoutScores[i]).map((c) => c.id);
  return { caseCount: n, seedMean, winnerMean, delta: winnerMean - seedMean, criticalRegressions };
}

/**
 * Whether the Validation winner may be submitted: not the seed, a Holdout exists,
 * the paired Holdout mean delta reaches the minimum, and no Critical Holdout case
 * regressed. The reason is always filled, whatever the outcome.
 */
export function assessPromotion(input: PromotionInput): PromotionAssessment {
  const holdout = input.holdoutCases.length > 0 ? compareHoldout(input) : undefined;
  if (input.winnerIsSeed) {
    return { eligible: false, reason: 'validation selected the seed skill: no accepted candidate improved the validation mean, nothing to submit', holdout };
  }
  if (!holdout) return { eligible: false, reason: 'no holdout split configured: the winner cannot be confirmed on unseen cases', holdout };
  const failures: string[] = [];
  if (holdout.delta < input.minHoldoutImprovement - EPSILON) {
    failures.push(`holdout delta ${signed(holdout.delta)} is below the required ${input.minHoldoutImprovement.toFixed(4)}`);
  }
  if (holdout.criticalRegressions.length > 0) {
    failures.push(`critical holdout case${holdout.criticalRegressions.length > 1 ? 's' : ''} regressed: ${holdout.criticalRegressions.join(', ')}`);
  }
  if (failures.length > 0) return { eligible: false, reason: failures.join('; '), holdout };
  return {
    eligible: true,
    reason:
      `holdout requirements satisfied: mean ${holdout.seedMean.toFixed(4)} → ${holdout.winnerMean.toFixed(4)} ` +
      `(delta ${signed(holdout.delta)} ≥ ${input.minHoldoutImprovement.toFixed(4)}), no critical case regressed`,
    holdout,
  };
}
