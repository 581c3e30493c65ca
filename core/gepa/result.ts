import type { ExperimentResult, StopReason } from '../schemas/gepa';
import type { PromotionAssessment } from './promotion';
import { winnerOf, type GepaSearchState } from './state';

/** The result of a search that ended normally (iteration or metric budget) and went through Holdout. */
export function completedResult(
  state: GepaSearchState,
  outcome: { stopReason: Extract<StopReason, 'max_iterations' | 'metric_budget'>; promotion: PromotionAssessment; submittedRevisionId?: string },
): ExperimentResult {
  const winner = winnerOf(state);
  const result: ExperimentResult = {
    experimentId: state.experimentId,
    status: 'completed',
    stopReason: outcome.stopReason,
    seedValidationMean: state.candidates[0].validationMean,
    bestCandidateId: winner.id,
    bestSpec: winner.candidate.spec,
    bestValidationMean: winner.validationMean,
    candidateCount: state.candidates.length,
    promotionEligible: outcome.promotion.eligible,
    promotionReason: outcome.promotion.reason,
    metricCallsUsed: state.budget.used,
    iterations: state.iteration,
  };
  if (outcome.promotion.holdout) result.holdout = outcome.promotion.holdout;
  if (outcome.submittedRevisionId) result.submittedRevisionId = outcome.submittedRevisionId;
  return result;
}

/**
 * The result of a run that did not finish: a time limit or an error. Nothing is
 * selected or submitted; whatever was measured before the failure is kept.
 */
export function failedResult(
  experimentId: string,
  state: GepaSearchState | undefined,
  failure: { stopReason: Extract<StopReason, 'time_limit' | 'error'>; error: string },
): ExperimentResult {
  const what = failure.stopReason === 'time_limit' ? 'the search exceeded its time limit' : 'the experiment failed';
  const result: ExperimentResult = {
    experimentId,
    status: 'failed',
    stopReason: failure.stopReason,
    candidateCount: state?.candidates.length ?? 0,
    promotionEligible: false,
    promotionReason: `${what}; no candidate was selected or submitted`,
    metricCallsUsed: state?.budget.used ?? 0,
    iterations: state?.iteration ?? 0,
    error: failure.error,
  };
  if (state && state.candidates.length > 0) result.seedValidationMean = state.candidates[0].validationMean;
  return result;
}
