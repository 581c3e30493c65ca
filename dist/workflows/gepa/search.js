"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evaluateBatch = evaluateBatch;
exports.asEvaluations = asEvaluations;
exports.runSearch = runSearch;
const workflow_1 = require("@temporalio/workflow");
const core_1 = require("../../core");
const retry_policies_1 = require("../retry-policies");
const failure_1 = require("./failure");
const evaluation_1 = require("./evaluation");
const ids_1 = require("./ids");
// The reflector is retried a few times (malformed answers, 5xx); then the iteration is
// recorded as invalid_reflection and the search goes on.
const reflector = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '3 minutes',
    retry: retry_policies_1.modelCallRetry,
});
/** Evaluates one candidate on some cases as a child workflow; only scores come back. */
function evaluateBatch(context, request) {
    const input = {
        ...request,
        experimentId: context.experimentId,
        dataset: { id: context.dataset.id, version: context.dataset.version },
        evaluator: { taskQueue: context.evaluatorTaskQueue, chunkSize: context.options.evaluationChunkSize, concurrency: context.options.evaluationConcurrency },
        at: new Date().toISOString(),
    };
    return (0, workflow_1.executeChild)(evaluation_1.evaluationBatchWorkflow, { workflowId: (0, ids_1.evaluationWorkflowId)(context.workflowId, request.recordId), args: [input] });
}
/** The batch's scores in the shape core's transitions check (one evaluation per case). */
function asEvaluations(batch) {
    return batch.caseIds.map((caseId, i) => ({ caseId, score: batch.scores[i] }));
}
/** A failed evaluation ends the iteration (its calls are spent); a cancellation (time limit) propagates. */
async function tryBatch(context, request) {
    try {
        return await evaluateBatch(context, request);
    }
    catch (e) {
        if ((0, workflow_1.isCancellation)(e))
            throw e;
        return { failed: (0, failure_1.failureMessage)(e) };
    }
}
/**
 * The seed's Validation run (first run only), then iterations until search stops or
 * this run has done its share (the caller continues as new with the state).
 */
async function runSearch(h) {
    const { context } = h;
    if (h.state.candidates.length === 0) {
        const seedId = (0, core_1.candidateIdFor)((0, core_1.specFingerprint)(context.seed));
        const batch = await evaluateBatch(context, {
            recordId: ids_1.recordIds.seedValidation,
            phase: 'validation',
            split: 'validation',
            caseIds: context.dataset.validationIds,
            candidateId: seedId,
            spec: context.seed,
            seed: h.state.validationSeed,
        });
        h.state = (0, core_1.admitSeed)(h.state, context.seed, asEvaluations(batch));
    }
    for (let done = 0;; done++) {
        const stop = (0, core_1.searchStopReason)(h.state);
        if (stop)
            return { kind: 'stopped', stopReason: stop };
        if (done >= context.iterationsPerRun || (done > 0 && (0, workflow_1.workflowInfo)().continueAsNewSuggested))
            return { kind: 'continue' };
        await runIteration(h);
    }
}
/** One reflective mutation attempt; every way it can end is logged in the state. */
async function runIteration(h) {
    const { context } = h;
    const planned = (0, core_1.planIteration)(h.state, context.dataset.feedbackIds);
    h.state = planned.state;
    const plan = planned.plan;
    const n = plan.iteration;
    const parent = (0, core_1.findCandidate)(h.state, plan.parentId);
    const minibatch = (recordId, phase, candidateId, spec) => ({
        recordId,
        phase,
        iteration: n,
        split: 'feedback',
        caseIds: plan.caseIds,
        candidateId,
        spec,
        seed: plan.pairedSeed,
    });
    const parentBatch = await tryBatch(context, minibatch(ids_1.recordIds.parentMinibatch(n), 'feedback-parent', parent.id, parent.spec));
    if ('failed' in parentBatch) {
        h.state = (0, core_1.rejectIteration)((0, core_1.chargeMetricCalls)(h.state, plan.caseIds.length), plan, { outcome: 'evaluation_failed', reason: `parent evaluation failed: ${parentBatch.failed}` });
        return;
    }
    const parentRun = (0, core_1.recordMinibatch)(h.state, plan, asEvaluations(parentBatch));
    h.state = parentRun.state;
    const parentTotal = (0, core_1.scoreTotal)(parentRun.run.scores);
    let screening;
    try {
        screening = await reflector.reflectOnMinibatch({
            experimentId: context.experimentId,
            iteration: n,
            dataset: { id: context.dataset.id, version: context.dataset.version },
            parentSpec: parent.spec,
            component: plan.component,
            evaluationRecordId: parentBatch.recordId,
            poolFingerprints: [...(0, core_1.poolFingerprints)(h.state)],
        });
    }
    catch (e) {
        if ((0, workflow_1.isCancellation)(e))
            throw e;
        h.state = (0, core_1.rejectIteration)(h.state, plan, { outcome: 'invalid_reflection', reason: `reflector failed: ${(0, failure_1.failureMessage)(e)}`, parentMinibatchTotal: parentTotal });
        return;
    }
    if (!screening.ok) {
        h.state = (0, core_1.rejectIteration)(h.state, plan, { outcome: screening.outcome, reason: screening.reason, parentMinibatchTotal: parentTotal });
        return;
    }
    const childId = (0, core_1.candidateIdFor)(screening.fingerprint);
    const childBatch = await tryBatch(context, minibatch(ids_1.recordIds.childMinibatch(n), 'feedback-child', childId, screening.spec));
    if ('failed' in childBatch) {
        h.state = (0, core_1.rejectIteration)((0, core_1.chargeMetricCalls)(h.state, plan.caseIds.length), plan, { outcome: 'evaluation_failed', reason: `child evaluation failed: ${childBatch.failed}`, parentMinibatchTotal: parentTotal, childId });
        return;
    }
    const childRun = (0, core_1.recordMinibatch)(h.state, plan, asEvaluations(childBatch));
    h.state = childRun.state;
    const verdict = (0, core_1.judgeMinibatch)(parentRun.run, childRun.run);
    if (!verdict.accepted) {
        h.state = (0, core_1.rejectIteration)(h.state, plan, { outcome: 'not_better', reason: verdict.reason, parentMinibatchTotal: verdict.parentTotal, childMinibatchTotal: verdict.childTotal, childId });
        return;
    }
    const validation = await tryBatch(context, {
        recordId: ids_1.recordIds.childValidation(n),
        phase: 'validation',
        iteration: n,
        split: 'validation',
        caseIds: context.dataset.validationIds,
        candidateId: childId,
        spec: screening.spec,
        seed: h.state.validationSeed,
    });
    if ('failed' in validation) {
        h.state = (0, core_1.rejectIteration)((0, core_1.chargeMetricCalls)(h.state, context.dataset.validationIds.length), plan, {
            outcome: 'evaluation_failed',
            reason: `child validation failed: ${validation.failed}`,
            parentMinibatchTotal: verdict.parentTotal,
            childMinibatchTotal: verdict.childTotal,
            childId,
        });
        return;
    }
    h.state = (0, core_1.admitChild)(h.state, plan, screening, verdict, asEvaluations(validation));
}
//# sourceMappingURL=search.js.map