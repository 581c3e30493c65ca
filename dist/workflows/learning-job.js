"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.learningJobWorkflow = learningJobWorkflow;
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const revision_id_1 = require("../core/learning/revision-id");
const operations_1 = require("../core/publication/operations");
const workflow_inputs_1 = require("../core/workflow-inputs");
const approval_1 = require("./approval");
const input_guard_1 = require("./input-guard");
const model_answer_budget_1 = require("./model-answer-budget");
const retry_policies_1 = require("./retry-policies");
const scope_index_1 = require("./scope-index");
const storage = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '1 minute', retry: retry_policies_1.storageRetry });
// Publication waits on the pointer's compare-and-swap under contention: it heartbeats, so a
// stuck or orphaned attempt is noticed in seconds and never runs beside its retry for long.
const publisher = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: retry_policies_1.storageRetry });
// The reviewer gets three model answers (malformed, refused, timed out); then the job
// ends without advancing the cursor, so the same delta is reviewed again next time.
// Infrastructure faults (S3, a dead worker) are retried within the deadline and cost none.
const reviewer = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '3 minutes',
    scheduleToCloseTimeout: retry_policies_1.REVIEWER_DEADLINE,
    // The activity heartbeats during the LLM call: a dead worker is noticed in seconds.
    heartbeatTimeout: '20 seconds',
    retry: retry_policies_1.reviewerInfrastructureRetry,
});
const INDEX_ACK_TIMEOUT = '30 seconds';
/**
 * Reviews one finished session segment: delta after the cursor → review policy →
 * LLM reviewer → reconcile → gates → immutable revisions → publish or hold.
 * The workflow id is a function of the segment, so a duplicate submission is deduplicated.
 */
async function learningJobWorkflow(input) {
    (0, input_guard_1.requireValidInput)('learning job', (0, workflow_inputs_1.checkLearningJobInput)(input));
    const { segment } = input;
    const jobId = (0, workflow_1.workflowInfo)().workflowId;
    const indexed = (0, scope_index_1.indexAcks)();
    const prepared = await storage.prepareReview({ segment });
    const { governance } = prepared;
    // A job that ends right after advancing the cursor records its outcome in the same activity.
    const advanceCursor = (outcome) => storage.advanceCursor({ scopeKey: prepared.scopeKey, sessionId: segment.sessionId, cursor: prepared.nextCursor, cursorEtag: prepared.cursorEtag, at: new Date().toISOString(), outcome });
    const base = { jobId, scopeKey: prepared.scopeKey, sessionId: segment.sessionId, deltaEvents: prepared.deltaEventCount };
    if (prepared.quarantinedAfter) {
        // A poison delta: it failed review too often; step past it so the session can learn again.
        const reasons = prepared.quarantinedAfter.map((f) => f.reason).join(' | ');
        return finishAdvancingCursor({ ...base, status: 'quarantined', reason: `delta quarantined after ${prepared.quarantinedAfter.length} failed reviews: ${reasons}`, cursorAdvanced: true, revisions: [], dropped: [], quarantinedAfter: prepared.quarantinedAfter });
    }
    if (!prepared.policy.review) {
        return finishAdvancingCursor({ ...base, status: 'policy_skipped', reason: prepared.policy.reason, cursorAdvanced: true, revisions: [], dropped: [] });
    }
    let decision;
    try {
        decision = await (0, model_answer_budget_1.withinModelAnswerBudget)(() => reviewer.reviewSession({ segment, reviewedAfter: prepared.reviewedAfter, existingSkills: prepared.existingSkills }));
    }
    catch (err) {
        const cause = err instanceof workflow_1.ActivityFailure && err.cause ? err.cause.message : err.message;
        await storage.recordReviewFailure({ scopeKey: prepared.scopeKey, sessionId: segment.sessionId, fingerprint: prepared.deltaFingerprint, failure: { jobId, reason: cause, at: new Date().toISOString() } });
        return finish({ ...base, status: 'reviewer_failed', reason: cause, cursorAdvanced: false, revisions: [], dropped: [] });
    }
    // A valid decision advances the cursor before any governance work: storage or
    // publication failures below are retried from revision state, never by re-reviewing.
    if (decision.skip_reason && !decision.creates.length && !decision.updates.length && !decision.deletions.length) {
        return finishAdvancingCursor({ ...base, status: 'reviewer_skipped', reason: decision.skip_reason, cursorAdvanced: true, revisions: [], dropped: decision.dropped ?? [] });
    }
    await advanceCursor();
    // Reconciled against every skill of the scope (through the index), not just the reviewer's few.
    const plan = await storage.planJob({
        decision,
        indexEtag: prepared.indexEtag,
        jobId,
        scope: prepared.scope,
        scopeKey: prepared.scopeKey,
        outcome: segment.outcome,
        governance,
        at: new Date().toISOString(),
    });
    for (const d of plan.dropped)
        workflow_1.log.warn('reconciler dropped a candidate', { jobId, name: d.name, list: d.list, reason: d.reason });
    for (const r of plan.rewrites)
        workflow_1.log.info('reconciler rewrote a candidate', { jobId, name: r.name, list: r.list, reason: r.reason });
    const revisions = [];
    for (const revision of plan.revisions) {
        const publishNow = revision.status === 'pending';
        const stored = await storage.recordRevision({ revision, publishNow });
        const ref = { scopeKey: revision.scopeKey, skillId: revision.skillId, revisionId: revision.id };
        let status = revision.status;
        if (publishNow) {
            const r = await publisher.publishRevision({ revision: ref, known: stored, opId: (0, operations_1.operationId)(jobId, `publish/${revision.id}`), actor: 'evolution', reason: revision.shadowBypassed ? 'shadow mode: published despite gate verdicts' : 'all gates passed', at: revision.createdAt, auditAction: 'promote' });
            status = r.status;
            // Read-your-writes: when the job returns, agents' next refresh sees the publication.
            await indexed.until(revision.skillId, r.indexSeq, INDEX_ACK_TIMEOUT);
        }
        else if (status === 'pending_approval') {
            try {
                await (0, workflow_1.startChild)(approval_1.approvalWorkflow, {
                    workflowId: (0, revision_id_1.approvalWorkflowId)(revision.id),
                    args: [{ revision: ref, timeoutMs: governance.approvalTimeoutMs, source: 'reviewer' }],
                    parentClosePolicy: workflow_1.ParentClosePolicy.ABANDON,
                    searchAttributes: { EvolutionRevisionId: [revision.id], EvolutionSkillId: [revision.skillId], EvolutionScopeKey: [revision.scopeKey], EvolutionKind: ['approval'] },
                });
            }
            catch (err) {
                // A re-run job (reset) finds its revision already waiting: that is the state we want.
                if (!(err instanceof common_1.WorkflowExecutionAlreadyStartedError))
                    throw err;
            }
        }
        revisions.push({ revisionId: revision.id, skillId: revision.skillId, name: revision.spec?.name ?? revision.skillId, action: revision.action, status, shadowBypassed: revision.shadowBypassed, reasons: revision.gates.flatMap((g) => g.reasons).concat(revision.human?.reasons ?? []) });
    }
    return finish({ ...base, status: 'reviewed', reason: decision.skip_reason || 'reviewer proposed changes', cursorAdvanced: true, revisions, dropped: plan.dropped });
    async function finish(outcome) {
        await storage.recordJobOutcome({ outcome, at: new Date().toISOString() });
        return outcome;
    }
    async function finishAdvancingCursor(outcome) {
        await advanceCursor(outcome);
        return outcome;
    }
}
//# sourceMappingURL=learning-job.js.map