"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.LOG_TAIL_LIMIT = exports.SEARCH_STATE_VERSION = void 0;
exports.candidateIdFor = candidateIdFor;
exports.initSearchState = initSearchState;
exports.findCandidate = findCandidate;
exports.seedCandidate = seedCandidate;
exports.scoreRows = scoreRows;
exports.poolFingerprints = poolFingerprints;
exports.chargeMetricCalls = chargeMetricCalls;
exports.admitSeed = admitSeed;
exports.searchStopReason = searchStopReason;
exports.planIteration = planIteration;
exports.recordMinibatch = recordMinibatch;
exports.rejectIteration = rejectIteration;
exports.admitChild = admitChild;
exports.winnerOf = winnerOf;
const budget_1 = require("./budget");
const components_1 = require("./components");
const evaluations_1 = require("./evaluations");
const minibatch_1 = require("./minibatch");
const pareto_1 = require("./pareto");
const prng_1 = require("./prng");
const selection_1 = require("./selection");
exports.SEARCH_STATE_VERSION = 1;
/** The state keeps only the latest log entries; the workflow records every entry in the experiment records. */
exports.LOG_TAIL_LIMIT = 100;
function candidateIdFor(fingerprint) {
    return `c-${fingerprint}`;
}
/**
 * The state before anything is evaluated. Throws MetricBudgetError when the budget
 * cannot even cover seed Validation plus the Holdout reserve.
 */
function initSearchState(input) {
    const { options, dataset } = input;
    const budget = (0, budget_1.planBudget)({
        maxMetricCalls: options.maxMetricCalls,
        feedbackSize: dataset.feedback.length,
        validationSize: dataset.validation.length,
        holdoutSize: dataset.holdout.length,
        reflectionBatchSize: options.reflectionBatchSize,
    });
    return {
        version: exports.SEARCH_STATE_VERSION,
        experimentId: input.experimentId,
        randomSeed: options.randomSeed,
        validationSeed: (0, prng_1.deriveSeed)(options.randomSeed, 'validation'),
        holdoutSeed: (0, prng_1.deriveSeed)(options.randomSeed, 'holdout'),
        validationCaseIds: dataset.validation.map((c) => c.id),
        feedbackSize: dataset.feedback.length,
        minibatchSize: (0, budget_1.minibatchSize)(options.reflectionBatchSize, dataset.feedback.length),
        maxIterations: options.maxIterations,
        budget,
        prng: (0, prng_1.prngFromSeed)(options.randomSeed),
        iteration: 0,
        candidates: [],
        log: [],
        logDropped: 0,
    };
}
function requireCandidate(state, id) {
    const found = state.candidates.find((c) => c.id === id);
    if (!found)
        throw new Error(`candidate "${id}" is not in the pool`);
    return found;
}
function findCandidate(state, id) {
    return state.candidates.find((c) => c.id === id);
}
function seedCandidate(state) {
    if (state.candidates.length === 0)
        throw new Error('the seed has not been evaluated yet');
    return state.candidates[0];
}
function scoreRows(state) {
    return state.candidates.map((c) => ({ id: c.id, scores: c.validationScores }));
}
/** Fingerprint → candidate id, for duplicate detection. */
function poolFingerprints(state) {
    return new Map(state.candidates.map((c) => [c.fingerprint, c.id]));
}
/** Records metric calls spent outside the helpers below (a failed evaluation, Holdout). */
function chargeMetricCalls(state, calls, phase = 'search') {
    return { ...state, budget: (0, budget_1.spendMetricCalls)(state.budget, calls, phase) };
}
function validationScoresOf(state, raw) {
    return (0, evaluations_1.alignEvaluations)(state.validationCaseIds, raw).scores;
}
/** Adds the seed with its Validation scores (evaluated with `validationSeed`) and charges |V|. */
function admitSeed(state, seedSpec, validationEvaluations) {
    if (state.candidates.length > 0)
        throw new Error('the seed is already in the pool');
    const scores = validationScoresOf(state, validationEvaluations);
    const fingerprint = (0, components_1.specFingerprint)(seedSpec);
    const seed = {
        id: candidateIdFor(fingerprint),
        spec: seedSpec,
        fingerprint,
        componentCursor: 0,
        validationScores: scores,
        validationMean: (0, pareto_1.meanScore)(scores),
    };
    return { ...chargeMetricCalls(state, scores.length), candidates: [seed] };
}
/** Why search must stop now (max_iterations, then metric_budget), or undefined to run another iteration. */
function searchStopReason(state) {
    return (0, budget_1.searchStopReason)(state.budget, state.iteration, state.maxIterations);
}
/**
 * Chooses the parent (Pareto sampling), the Feedback minibatch and the paired seed,
 * and advances the parent's component cursor. Feedback ids are given in split order.
 */
function planIteration(state, feedbackCaseIds) {
    if (state.candidates.length === 0)
        throw new Error('evaluate and admit the seed before planning iterations');
    if (feedbackCaseIds.length !== state.feedbackSize) {
        throw new Error(`expected ${state.feedbackSize} feedback case ids, got ${feedbackCaseIds.length}`);
    }
    const stop = searchStopReason(state);
    if (stop)
        throw new Error(`cannot start iteration ${state.iteration}: search is over (${stop})`);
    const parentDraw = (0, pareto_1.sampleParent)(scoreRows(state), state.prng);
    const batch = (0, minibatch_1.sampleMinibatchIndices)(state.feedbackSize, state.minibatchSize, parentDraw.prng);
    const parent = requireCandidate(state, parentDraw.parentId);
    const plan = {
        iteration: state.iteration,
        parentId: parent.id,
        component: (0, components_1.componentAt)(parent.componentCursor),
        caseIndices: batch.indices,
        caseIds: batch.indices.map((i) => feedbackCaseIds[i]),
        pairedSeed: (0, prng_1.deriveSeed)(state.randomSeed, state.iteration),
    };
    const candidates = state.candidates.map((c) => (c.id === parent.id ? { ...c, componentCursor: (0, components_1.nextComponentCursor)(c.componentCursor) } : c));
    return { state: { ...state, prng: batch.prng, candidates }, plan };
}
/** Checks a minibatch evaluation (parent's or child's) against the plan and charges its calls. */
function recordMinibatch(state, plan, evaluations) {
    const { scores } = (0, evaluations_1.alignEvaluations)(plan.caseIds, evaluations);
    return { state: chargeMetricCalls(state, scores.length), run: { caseIds: plan.caseIds, seed: plan.pairedSeed, scores } };
}
function logEntry(state, plan, fields) {
    return {
        iteration: plan.iteration,
        parentId: plan.parentId,
        component: plan.component,
        pairedSeed: plan.pairedSeed,
        ...fields,
        metricCallsAfter: state.budget.used,
    };
}
function assertCurrent(state, plan) {
    if (plan.iteration !== state.iteration)
        throw new Error(`plan is for iteration ${plan.iteration} but the state is at ${state.iteration}`);
}
/** Ends the iteration without a new candidate and logs why. */
function rejectIteration(state, plan, rejection) {
    assertCurrent(state, plan);
    const entry = logEntry(state, plan, {
        accepted: false,
        outcome: rejection.outcome,
        reason: rejection.reason,
        parentMinibatchTotal: rejection.parentMinibatchTotal,
        childMinibatchTotal: rejection.childMinibatchTotal,
        childId: rejection.childId,
    });
    return { ...state, iteration: state.iteration + 1, ...appendLog(state, stripUndefined(entry)) };
}
/** Adds an accepted child with its Validation scores (evaluated with `validationSeed`), charging |V|. */
function admitChild(state, plan, child, verdict, validationEvaluations) {
    assertCurrent(state, plan);
    if (!verdict.accepted)
        throw new Error('only a child that passed the minibatch test can be admitted');
    if (poolFingerprints(state).has(child.fingerprint))
        throw new Error(`candidate ${candidateIdFor(child.fingerprint)} is already in the pool`);
    const parent = requireCandidate(state, plan.parentId);
    const scores = validationScoresOf(state, validationEvaluations);
    const charged = chargeMetricCalls(state, scores.length);
    const record = {
        id: candidateIdFor(child.fingerprint),
        parentId: parent.id,
        spec: child.spec,
        fingerprint: child.fingerprint,
        mutatedComponent: plan.component,
        iteration: plan.iteration,
        componentCursor: parent.componentCursor,
        validationScores: scores,
        validationMean: (0, pareto_1.meanScore)(scores),
    };
    const entry = logEntry(charged, plan, {
        accepted: true,
        outcome: 'accepted',
        reason: verdict.reason,
        parentMinibatchTotal: verdict.parentTotal,
        childMinibatchTotal: verdict.childTotal,
        childId: record.id,
        childValidationMean: record.validationMean,
    });
    return { ...charged, iteration: state.iteration + 1, candidates: [...state.candidates, record], ...appendLog(state, entry) };
}
/** The Validation winner of the current pool (ties → earliest; the seed is candidates[0]). */
function winnerOf(state) {
    const winner = (0, selection_1.selectWinner)(scoreRows(state));
    return { ...winner, candidate: requireCandidate(state, winner.id) };
}
function appendLog(state, entry) {
    const log = [...state.log, entry];
    const excess = Math.max(0, log.length - exports.LOG_TAIL_LIMIT);
    return { log: log.slice(excess), logDropped: state.logDropped + excess };
}
function stripUndefined(value) {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
//# sourceMappingURL=state.js.map