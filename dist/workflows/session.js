"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionStateQuery = exports.submitSegmentSignal = void 0;
exports.sessionWorkflow = sessionWorkflow;
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const ids_1 = require("../core/governance/ids");
const hash_1 = require("../core/skills/hash");
const workflow_inputs_1 = require("../core/workflow-inputs");
const input_guard_1 = require("./input-guard");
const learning_job_1 = require("./learning-job");
/** A finished segment of this session, claim-checked (see client `startLearningJob`). */
exports.submitSegmentSignal = (0, workflow_1.defineSignal)('submitSegment');
exports.sessionStateQuery = (0, workflow_1.defineQuery)('state');
const SEEN_LIMIT = 500;
const SEGMENTS_PER_RUN = 200;
/**
 * One entity per session (`session/{scopeKey}/{sessionId}`, reached by signal-with-start):
 * runs the session's learning jobs strictly in order, one child workflow per segment.
 * Completes when idle; continues-as-new before its history grows large.
 */
async function sessionWorkflow(input = {}) {
    (0, input_guard_1.requireValidInput)('session', (0, workflow_inputs_1.checkSessionInput)(input));
    const queue = [...(input.queue ?? [])];
    const seen = [...(input.seen ?? [])];
    const state = { queued: queue.length, processed: 0 };
    (0, workflow_1.setHandler)(exports.submitSegmentSignal, (segment) => {
        // A malformed segment is queued too: its own job fails visibly, the session goes on.
        const id = segmentIdOf(segment);
        if (id !== undefined && (seen.includes(id) || queue.some((s) => segmentIdOf(s) === id)))
            return;
        queue.push(segment);
        state.queued = queue.length;
    });
    (0, workflow_1.setHandler)(exports.sessionStateQuery, () => state);
    for (;;) {
        const hasWork = await (0, workflow_1.condition)(() => queue.length > 0, input.idleTimeoutMs ?? 10 * 60_000);
        if (!hasWork)
            return state;
        if (state.processed >= SEGMENTS_PER_RUN || (0, workflow_1.workflowInfo)().continueAsNewSuggested) {
            await (0, workflow_1.continueAsNew)({ ...input, queue, seen });
        }
        const segment = queue.shift();
        state.queued = queue.length;
        state.current = segmentIdOf(segment);
        if (state.current !== undefined)
            seen.push(state.current);
        if (seen.length > SEEN_LIMIT)
            seen.splice(0, seen.length - SEEN_LIMIT);
        state.lastOutcome = await runJob(segment);
        state.current = undefined;
        state.processed++;
    }
}
function segmentIdOf(segment) {
    const id = segment?.segmentId;
    return typeof id === 'string' ? id : undefined;
}
/**
 * The job's workflow id and scope key. A segment too malformed to name its job (bad scope
 * key, missing ids) gets one under this session, from a hash of its content: the job
 * still runs, and fails at once on its input check, visibly, where the platform looks for
 * the session's jobs.
 */
function jobTargetFor(segment) {
    const problems = [];
    (0, workflow_inputs_1.checkSegment)(problems, 'segment', segment);
    if (problems.length === 0)
        return { workflowId: (0, ids_1.learningJobWorkflowId)(segment), scopeKey: segment.scopeKey };
    const sessionPart = (0, workflow_1.workflowInfo)().workflowId.replace(/^session\//, ''); // {scopeKey}/{sessionId}
    return { workflowId: `learning/${sessionPart}/invalid-${(0, hash_1.shortHash)(JSON.stringify(segment) ?? 'undefined')}`, scopeKey: sessionPart.slice(0, Math.max(0, sessionPart.lastIndexOf('/'))) };
}
async function runJob(segment) {
    const { workflowId, scopeKey } = jobTargetFor(segment);
    try {
        const outcome = await (0, workflow_1.executeChild)(learning_job_1.learningJobWorkflow, {
            workflowId,
            args: [{ segment }],
            // The same segment submitted again after its job finished is not reviewed twice.
            workflowIdReusePolicy: workflow_1.WorkflowIdReusePolicy.REJECT_DUPLICATE,
            // The jobs of a scope are one visibility query: EvolutionScopeKey = '…' AND EvolutionKind = 'learning-job'.
            searchAttributes: { EvolutionKind: ['learning-job'], EvolutionScopeKey: [scopeKey] },
        });
        return { jobId: outcome.jobId, status: outcome.status, reason: outcome.reason };
    }
    catch (err) {
        if (err instanceof common_1.WorkflowExecutionAlreadyStartedError)
            return { jobId: workflowId, status: 'duplicate', reason: 'segment was already submitted' };
        // A failed job must not stop later segments; its cursor did not advance.
        if (err instanceof workflow_1.ChildWorkflowFailure)
            return { jobId: workflowId, status: 'failed', reason: err.cause?.message ?? err.message };
        throw err;
    }
}
//# sourceMappingURL=session.js.map