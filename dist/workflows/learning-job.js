"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.learningJobWorkflow = learningJobWorkflow;
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const plan_1 = require("../core/governance/plan");
const revision_id_1 = require("../core/learning/revision-id");
const approval_1 = require("./approval");
const storage = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', nonRetryableErrorTypes: ['NonRetryableStoreError', 'ScopeError', 'InvalidSegmentError'] },
});
// The reviewer is retried a few times (malformed answers, 5xx, timeouts); then the job
// ends without advancing the cursor, so the same delta is reviewed again next time.
const reviewer = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '3 minutes',
    // The activity heartbeats during the LLM call: a dead worker is noticed in seconds.
    heartbeatTimeout: '20 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 3 },
});
/**
 * Reviews one finished session segment: delta after the cursor → review policy →
 * LLM reviewer → reconcile → gates → immutable revisions → publish or hold.
 * The workflow id is a function of the segment, so a duplicate submission is deduplicated.
 */
async function learningJobWorkflow({ segment }) {
    const jobId = (0, workflow_1.workflowInfo)().workflowId;
    const prepared = await storage.prepareReview({ segment });
    const { governance } = prepared;
    // A job that ends right after advancing the cursor records its outcome in the same activity.
    const advanceCursor = (outcome) => storage.advanceCursor({ scopeKey: prepared.scopeKey, sessionId: segment.sessionId, cursor: prepared.nextCursor, at: new Date().toISOString(), outcome });
    const base = { jobId, scopeKey: prepared.scopeKey, sessionId: segment.sessionId, deltaEvents: prepared.deltaEventCount };
    if (!prepared.policy.review) {
        return finishAdvancingCursor({ ...base, status: 'policy_skipped', reason: prepared.policy.reason, cursorAdvanced: true, revisions: [], dropped: [] });
    }
    let decision;
    try {
        decision = await reviewer.reviewSession({ segment, transcriptRef: prepared.transcriptRef, existingSkills: prepared.existingSkills });
    }
    catch (err) {
        const cause = err instanceof workflow_1.ActivityFailure && err.cause ? err.cause.message : err.message;
        return finish({ ...base, status: 'reviewer_failed', reason: cause, cursorAdvanced: false, revisions: [], dropped: [] });
    }
    // A valid decision advances the cursor before any governance work: storage or
    // publication failures below are retried from revision state, never by re-reviewing.
    if (decision.skip_reason && !decision.creates.length && !decision.updates.length && !decision.deletions.length) {
        return finishAdvancingCursor({ ...base, status: 'reviewer_skipped', reason: decision.skip_reason, cursorAdvanced: true, revisions: [], dropped: [] });
    }
    await advanceCursor();
    const plan = (0, plan_1.planRevisions)({
        decision,
        existingSkills: prepared.existingSkills,
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
        await storage.recordRevision({ revision });
        const ref = { scopeKey: revision.scopeKey, skillId: revision.skillId, revisionId: revision.id };
        let status = revision.status;
        if (status === 'pending') {
            const r = await storage.publishRevision({ revision: ref, actor: 'evolution', reason: revision.shadowBypassed ? 'shadow mode: published despite gate verdicts' : 'all gates passed', at: new Date().toISOString(), auditAction: 'promote' });
            status = r.status;
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