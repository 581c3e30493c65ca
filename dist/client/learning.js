"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startLearningJob = startLearningJob;
exports.waitForLearningJob = waitForLearningJob;
const client_1 = require("@temporalio/client");
const core_1 = require("../core");
const governance_1 = require("../core/governance");
const workflows_1 = require("../workflows");
const errors_1 = require("./errors");
const payloads_1 = require("./payloads");
/**
 * Submits one finished session segment. Returns as soon as Temporal has durably accepted
 * it (signal-with-start of the session entity); the review runs asynchronously. `events`
 * are the session's messages so far (append-only); they are always claim-checked to S3,
 * so history holds only a reference. Submitting the same events again is a no-op.
 */
async function startLearningJob(deps, request) {
    const req = (0, errors_1.parseInput)(core_1.LearningJobRequestSchema, request, 'learning job request');
    const scopeMode = req.scopeMode ?? deps.config.governance.defaultScopeMode;
    let scopeKey;
    try {
        scopeKey = (0, core_1.scopeKey)({ mode: scopeMode, app: req.app, user: req.user });
    }
    catch (e) {
        throw new errors_1.InputError(`invalid scope: ${e.message}`);
    }
    // Credentials never reach storage: the stored events are redacted (a given payloadRef is the platform's own).
    const { payloadRef, eventCount } = req.payloadRef
        ? { payloadRef: req.payloadRef, eventCount: await countEvents(deps.store, req.payloadRef) }
        : await (0, payloads_1.storeSessionEvents)(deps.store, req.events ?? []);
    const segmentId = (0, governance_1.segmentIdFor)({ scopeKey, sessionId: req.sessionId, payloadSha256: payloadRef.sha256, outcome: req.outcome });
    // The outcome travels in workflow history and the reviewer prompt: its free text is redacted too
    // (the documented segmentId derivation stays over the outcome as submitted).
    const outcome = (0, core_1.redactOutcome)(req.outcome);
    const segment = { app: req.app, user: req.user, sessionId: req.sessionId, scopeMode, scopeKey, outcome, payloadRef, eventCount, segmentId };
    const workflowId = (0, governance_1.sessionWorkflowId)(scopeKey, req.sessionId);
    await deps.client.workflow.signalWithStart(workflows_1.sessionWorkflow, {
        workflowId,
        taskQueue: deps.config.temporal.taskQueue,
        args: [{ idleTimeoutMs: deps.config.runtime.sessionIdleTimeoutMs }],
        signal: workflows_1.submitSegmentSignal,
        signalArgs: [segment],
        searchAttributes: { EvolutionScopeKey: [scopeKey], EvolutionKind: ['session'] },
    });
    return { sessionWorkflowId: workflowId, jobWorkflowId: (0, governance_1.learningJobWorkflowId)({ scopeKey, sessionId: req.sessionId, segmentId }), segmentId, scopeKey };
}
async function countEvents(store, ref) {
    let json;
    try {
        json = JSON.parse(await store.getPayloadText(ref));
    }
    catch (e) {
        throw new errors_1.InputError(`payload ${ref.sha256} cannot be used: ${e.message}`);
    }
    return (0, errors_1.parseInput)(core_1.SessionEventsSchema, json, `session events in payload ${ref.sha256}`).length;
}
/** Waits for a learning job's outcome (the job may not have started yet: its session runs segments in order). */
async function waitForLearningJob(client, jobWorkflowId, opts = {}) {
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    for (;;) {
        try {
            return (await client.workflow.getHandle(jobWorkflowId).result());
        }
        catch (e) {
            if (!(e instanceof client_1.WorkflowNotFoundError) || Date.now() > deadline)
                throw e;
            await new Promise((r) => setTimeout(r, 250));
        }
    }
}
//# sourceMappingURL=learning.js.map