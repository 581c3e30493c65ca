import type { ExperimentResult, SelectionReport, StopReason } from '../schemas/gepa';
import type { PromotionAssessment } from './promotion';
import { totalSpend } from './spend';
import { findCandidate, winnerOf, type GepaSearchState } from './state';

export type CompletedStopReason = Extract<StopReason, 'max_iterations' | 'metric_budget' | 'token_budget' | 'cost_budget'>;

/** Accounting of runs that track it (absent for states of runs started before these fields). */
function accounting(state: GepaSearchState | undefined, resumes: number | undefined): Partial<ExperimentResult> {
  if (!state) return {};
  const out: Partial<ExperimentResult> = {};
  if (state.proposalsPossible !== undefined) {
    out.proposalsPossible = state.proposalsPossible;
    out.proposals = state.iteration;
  }
  if (state.cacheHits !== undefined) out.cacheHits = state.cacheHits;
  if (state.spend !== undefined) out.spend = totalSpend(state.spend);
  if (state.merge !== undefined) out.merges = { attempted: state.merge.tested, accepted: state.merge.accepted };
  if (resumes) out.resumes = resumes;
  return out;
}

/** The result of a search that ended normally (iterations, metric budget or a spend ceiling) and went through Holdout. */
export function completedResult(
  state: GepaSearchState,
  outcome: {
    stopReason: CompletedStopReason;
    promotion: PromotionAssessment;
    submittedRevisionId?: string;
    /** A winner chosen by multi_seed or k_fold selection (default: the Validation winner). */
    selection?: SelectionReport;
    resumes?: number;
  },
): ExperimentResult {
  const validationWinner = winnerOf(state);
  const winner = outcome.selection ? findCandidate(state, outcome.selection.winnerId) : validationWinner.candidate;
  if (!winner) throw new Error(`selected candidate ${outcome.selection?.winnerId} is not in the pool`);
  const result: ExperimentResult = {
    experimentId: state.experimentId,
    status: 'completed',
    stopReason: outcome.stopReason,
    seedValidationMean: state.candidates[0].validationMean,
    bestCandidateId: winner.id,
    bestSpec: winner.spec,
    bestValidationMean: winner.validationMean,
    candidateCount: state.candidates.length,
    promotionEligible: outcome.promotion.eligible,
    promotionReason: outcome.promotion.reason,
    metricCallsUsed: state.budget.used,
    iterations: state.iteration,
    ...accounting(state, outcome.resumes),
  };
  if (outcome.selection) result.selection = outcome.selection;
  if (outcome.promotion.holdout) result.holdout = outcome.promotion.holdout;
  if (outcome.submittedRevisionId) result.submittedRevisionId = outcome.submittedRevisionId;
  return result;
}

/**
 * The result of a run that did not finish: a time limit, an error, or a cancellation.
 * Nothing is selected or submitted; whatever was measured before is kept, and the
 * experiment can be resumed from its records.
 */
export function failedResult(
  experimentId: string,
  state: GepaSearchState | undefined,
  failure: { stopReason: Extract<StopReason, 'time_limit' | 'error' | 'cancelled'>; error: string; resumes?: number },
): ExperimentResult {
  const what =
    failure.stopReason === 'time_limit' ? 'the search exceeded its time limit' : failure.stopReason === 'cancelled' ? 'the experiment was cancelled' : 'the experiment failed';
  const result: ExperimentResult = {
    experimentId,
    status: failure.stopReason === 'cancelled' ? 'cancelled' : 'failed',
    stopReason: failure.stopReason,
    candidateCount: state?.candidates.length ?? 0,
    promotionEligible: false,
    promotionReason: `${what}; no candidate was selected or submitted`,
    metricCallsUsed: state?.budget.used ?? 0,
    iterations: state?.iteration ?? 0,
    error: failure.error,
    ...accounting(state, failure.resumes),
  };
  if (state && state.candidates.length > 0) result.seedValidationMean = state.candidates[0].validationMean;
  return result;
}
