"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.completedResult = completedResult;
exports.failedResult = failedResult;
const state_1 = require("./state");
/** The result of a search that ended normally (iteration or metric budget) and went through Holdout. */
function completedResult(state, outcome) {
    const winner = (0, state_1.winnerOf)(state);
    const result = {
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
    if (outcome.promotion.holdout)
        result.holdout = outcome.promotion.holdout;
    if (outcome.submittedRevisionId)
        result.submittedRevisionId = outcome.submittedRevisionId;
    return result;
}
/**
 * The result of a run that did not finish: a time limit or an error. Nothing is
 * selected or submitted; whatever was measured before the failure is kept.
 */
function failedResult(experimentId, state, failure) {
    const what = failure.stopReason === 'time_limit' ? 'the search exceeded its time limit' : 'the experiment failed';
    const result = {
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
    if (state && state.candidates.length > 0)
        result.seedValidationMean = state.candidates[0].validationMean;
    return result;
}
//# sourceMappingURL=result.js.map