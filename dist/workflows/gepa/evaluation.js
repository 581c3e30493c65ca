"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.evaluationBatchWorkflow = evaluationBatchWorkflow;
const workflow_1 = require("@temporalio/workflow");
const core_1 = require("../../core");
const workflow_inputs_1 = require("../../core/workflow-inputs");
const input_guard_1 = require("../input-guard");
const retry_policies_1 = require("../retry-policies");
const concurrency_1 = require("./concurrency");
const objectives_1 = require("./objectives");
// Loading cases and writing the record are short S3 calls: local activities save two
// server round trips per batch (they are still recorded, and retried, by Temporal).
const storage = (0, workflow_1.proxyLocalActivities)({ startToCloseTimeout: '1 minute', retry: retry_policies_1.storageRetry });
/**
 * One evaluation batch of an experiment, as a child workflow: the candidate's cases are
 * split into chunks that fan out to the application's evaluator task queue (bounded
 * concurrency, so several evaluator workers share one batch), every answer is checked
 * against the contract, and the full evaluations are written to the experiment record.
 * Only scores go back to the experiment, so its history stays small whatever the
 * evaluator's outputs and traces weigh; this batch's history is bounded by one batch.
 */
async function evaluationBatchWorkflow(input) {
    (0, input_guard_1.requireValidInput)('evaluation batch', (0, workflow_inputs_1.checkEvaluationBatchInput)(input));
    const evaluator = (0, workflow_1.proxyActivities)({
        taskQueue: input.evaluator.taskQueue,
        startToCloseTimeout: '10 minutes',
        // Evaluators heartbeat (at least once a minute) so a cancelled experiment stops them.
        heartbeatTimeout: '1 minute',
        retry: retry_policies_1.evaluatorRetry,
        cancellationType: workflow_1.ActivityCancellationType.TRY_CANCEL,
    });
    const cases = await storage.loadExperimentCases({ dataset: input.dataset, caseIds: input.caseIds });
    const chunks = (0, concurrency_1.chunk)(cases, input.evaluator.chunkSize);
    const answers = await (0, concurrency_1.mapConcurrent)(chunks, input.evaluator.concurrency, async (chunkCases) => {
        const raw = await evaluator.evaluateCandidate({ experimentId: input.experimentId, candidateId: input.candidateId, spec: input.spec, cases: chunkCases, seed: input.seed });
        try {
            return (0, core_1.alignEvaluations)(chunkCases.map((c) => c.id), raw).evaluations;
        }
        catch (e) {
            // A contract violation is the evaluator's answer, not a transient fault: no retry.
            if (e instanceof core_1.EvaluationContractError)
                throw workflow_1.ApplicationFailure.nonRetryable(e.message, 'EvaluatorContractError');
            throw e;
        }
    });
    const evaluations = answers.flat();
    await storage.recordExperimentEvaluation({
        experimentId: input.experimentId,
        recordId: input.recordId,
        phase: input.phase,
        iteration: input.iteration,
        split: input.split,
        candidateId: input.candidateId,
        seed: input.seed,
        caseIds: input.caseIds,
        evaluations,
        at: input.at,
    });
    return { recordId: input.recordId, caseIds: input.caseIds, scores: evaluations.map((e) => e.score), objectives: (0, objectives_1.objectiveMeans)(evaluations) };
}
//# sourceMappingURL=evaluation.js.map