"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.experimentProgressQuery = exports.evaluationBatchWorkflow = void 0;
exports.experimentWorkflow = experimentWorkflow;
/**
 * The GEPA experiment workflow (DESIGN.md "GEPA experiment workflow"; the loop itself is
 * described at the top of core/gepa/state.ts and its transitions are pure).
 *
 *   prepare (activity)   load or freeze the dataset, re-check it, resolve the parent,
 *                        write experiment.json once
 *   search               seed on Validation, then iterations, raced against the time
 *                        limit (a durable timer); continue-as-new every N iterations
 *                        with the compact state (ids, specs, scores, PRNG state)
 *   holdout              seed vs Validation winner under one paired seed
 *   submission           optional, governed; approval waits in its own workflow
 *   result               result.json and the returned report
 *
 * History stays small: cases and evaluator outputs never enter it. Evaluation runs in
 * child workflows (one per batch) that fan out to the evaluator task queue and write
 * the full records to S3; the experiment sees scores only.
 */
const workflow_1 = require("@temporalio/workflow");
const core_1 = require("../core");
const workflow_inputs_1 = require("../core/workflow-inputs");
const deadline_1 = require("./gepa/deadline");
const failure_1 = require("./gepa/failure");
const progress_query_1 = require("./gepa/progress-query");
Object.defineProperty(exports, "experimentProgressQuery", { enumerable: true, get: function () { return progress_query_1.experimentProgressQuery; } });
const finish_1 = require("./gepa/finish");
const ids_1 = require("./gepa/ids");
const search_1 = require("./gepa/search");
const input_guard_1 = require("./input-guard");
const retry_policies_1 = require("./retry-policies");
var evaluation_1 = require("./gepa/evaluation");
Object.defineProperty(exports, "evaluationBatchWorkflow", { enumerable: true, get: function () { return evaluation_1.evaluationBatchWorkflow; } });
const DEFAULT_ITERATIONS_PER_RUN = 20;
const storage = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '2 minutes', retry: retry_policies_1.storageRetry });
const invalid = (message) => workflow_1.ApplicationFailure.nonRetryable(message, 'InvalidExperimentRequest');
/** First run: validate, prepare, and build the initial context and state. */
async function start(input) {
    const parsed = core_1.ExperimentRequestSchema.safeParse(input.request);
    if (!parsed.success)
        throw invalid(`invalid experiment request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
    const request = parsed.data;
    const { workflowId } = (0, workflow_1.workflowInfo)();
    const experimentId = request.experimentId ?? (0, ids_1.experimentIdFromWorkflowId)(workflowId);
    const startedAt = new Date().toISOString();
    let prepared;
    try {
        prepared = await storage.prepareExperiment({ experimentId, workflowId, request, at: startedAt });
    }
    catch (e) {
        // Fail with the reason itself (bad dataset, unknown parent…), not "activity task failed".
        throw workflow_1.ApplicationFailure.create({ message: `experiment ${experimentId} could not start: ${(0, failure_1.failureMessage)(e)}`, type: 'ExperimentNotStarted', nonRetryable: true });
    }
    // initSearchState reads only split sizes and Validation ids; the cases themselves stay in S3.
    const toCases = (ids) => ids.map((id) => ({ id, input: null, critical: false }));
    const sizes = { feedback: toCases(prepared.dataset.feedbackIds), validation: toCases(prepared.dataset.validationIds), holdout: toCases(prepared.dataset.holdout.map((c) => c.id)) };
    let state;
    try {
        state = (0, core_1.initSearchState)({ experimentId, options: request.options, dataset: sizes });
    }
    catch (e) {
        throw invalid(e.message);
    }
    const context = {
        experimentId,
        workflowId,
        startedAt,
        seed: request.seed,
        scope: request.scope,
        scopeKey: prepared.scopeKey,
        skillId: request.skillId,
        parentRevisionId: prepared.parentRevisionId,
        submit: request.submit,
        options: request.options,
        evaluatorTaskQueue: request.options.evaluatorTaskQueue ?? prepared.defaultEvaluatorTaskQueue,
        dataset: prepared.dataset,
        deadlineMs: request.options.timeLimitMs === undefined ? undefined : new Date().getTime() + request.options.timeLimitMs,
        // The state keeps the last LOG_TAIL_LIMIT log entries; each run stores its own before moving on.
        iterationsPerRun: Math.max(1, Math.min(input.iterationsPerRun ?? DEFAULT_ITERATIONS_PER_RUN, core_1.LOG_TAIL_LIMIT)),
    };
    return { context, state, loggedThrough: 0, runs: 0 };
}
async function experimentWorkflow(input) {
    (0, input_guard_1.requireValidInput)('experiment', (0, workflow_inputs_1.checkExperimentInput)(input));
    let phase = 'preparing';
    let holder;
    const runs = (input.continued?.runs ?? 0) + 1;
    (0, workflow_1.setHandler)(progress_query_1.experimentProgressQuery, () => progress(holder, phase, runs));
    const run = input.continued ?? (await start(input));
    holder = { context: run.context, state: run.state };
    const { context } = run;
    let loggedThrough = run.loggedThrough;
    /** Stores the log entries of iterations finished since the last flush, and a state checkpoint. */
    async function flush() {
        const entries = holder.state.log.filter((e) => e.iteration >= loggedThrough);
        try {
            await storage.recordExperimentProgress({ experimentId: context.experimentId, entries, state: holder.state });
            loggedThrough = holder.state.iteration;
            return undefined;
        }
        catch (e) {
            return `recording the iteration log failed: ${(0, failure_1.failureMessage)(e)}`;
        }
    }
    const report = (result, submission) => ({
        ...result,
        workflowId: context.workflowId,
        dataset: { id: context.dataset.id, version: context.dataset.version },
        ...(context.parentRevisionId !== undefined ? { parentRevisionId: context.parentRevisionId } : {}),
        submission,
        startedAt: context.startedAt,
        finishedAt: new Date().toISOString(),
        runs,
    });
    async function finish(r) {
        phase = 'done';
        try {
            await storage.recordExperimentResult({ report: r });
        }
        catch (e) {
            const error = `recording the result failed: ${(0, failure_1.failureMessage)(e)}`;
            return { ...r, error: r.error ? `${r.error}; ${error}` : error };
        }
        return r;
    }
    const notSubmitted = (why) => (context.submit ? { status: 'skipped', reason: why } : { status: 'not_requested', reason: 'submit was not requested' });
    phase = 'search';
    let searched;
    try {
        searched = await (0, deadline_1.withDeadline)(context.deadlineMs, () => (0, search_1.runSearch)(holder));
    }
    catch (e) {
        if ((0, workflow_1.isCancellation)(e))
            throw e; // the experiment itself was cancelled: end as cancelled
        await flush();
        const failed = (0, core_1.failedResult)(context.experimentId, holder.state, { stopReason: 'error', error: (0, failure_1.failureMessage)(e) });
        return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
    }
    if (searched.timedOut) {
        await flush();
        const limit = context.options.timeLimitMs;
        const failed = (0, core_1.failedResult)(context.experimentId, holder.state, { stopReason: 'time_limit', error: `the search did not finish within its time limit of ${limit} ms` });
        return finish(report(failed, notSubmitted('the search exceeded its time limit: nothing was submitted')));
    }
    const flushError = await flush();
    if (searched.value.kind === 'continue') {
        if (flushError) {
            const failed = (0, core_1.failedResult)(context.experimentId, holder.state, { stopReason: 'error', error: flushError });
            return finish(report(failed, notSubmitted('the experiment failed: nothing was submitted')));
        }
        return (0, workflow_1.continueAsNew)({ continued: { context, state: holder.state, loggedThrough, runs } });
    }
    // Search ended normally: from here on a failure returns the partial result with its error.
    const { stopReason } = searched.value;
    phase = 'holdout';
    const holdout = await (0, finish_1.runHoldout)(context, holder.state);
    holder.state = holdout.state;
    const result = (0, core_1.completedResult)(holder.state, { stopReason, promotion: holdout.promotion });
    phase = 'submission';
    const submitted = holdout.error ? { submission: notSubmitted(`not submitted: ${holdout.promotion.reason}`) } : await (0, finish_1.submitWinner)(context, holder.state, holdout);
    if (submitted.submission.revisionId)
        result.submittedRevisionId = submitted.submission.revisionId;
    const errors = [flushError, holdout.error, submitted.error].filter((e) => e !== undefined);
    if (errors.length > 0)
        result.error = errors.join('; ');
    return finish(report(result, submitted.submission));
}
function progress(holder, phase, runs) {
    if (!holder) {
        return { experimentId: '', phase, iteration: 0, maxIterations: 0, metricCallsUsed: 0, maxMetricCalls: 0, candidateCount: 0, runs };
    }
    const { state, context } = holder;
    const seeded = state.candidates.length > 0;
    return {
        experimentId: context.experimentId,
        phase,
        iteration: state.iteration,
        maxIterations: state.maxIterations,
        metricCallsUsed: state.budget.used,
        maxMetricCalls: state.budget.max,
        candidateCount: state.candidates.length,
        ...(seeded ? { seedValidationMean: state.candidates[0].validationMean, bestValidationMean: (0, core_1.winnerOf)(state).validationMean } : {}),
        runs,
    };
}
//# sourceMappingURL=experiment.js.map