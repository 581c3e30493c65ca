"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.approvalStatusQuery = exports.decideUpdate = exports.decideSignal = void 0;
exports.approvalWorkflow = approvalWorkflow;
const workflow_1 = require("@temporalio/workflow");
const approval_decision_1 = require("../core/governance/approval-decision");
const workflow_inputs_1 = require("../core/workflow-inputs");
const input_guard_1 = require("./input-guard");
const retry_policies_1 = require("./retry-policies");
const operations_1 = require("../core/publication/operations");
const scope_index_1 = require("./scope-index");
/** Fire-and-forget decision; works from any Temporal client or `temporal workflow signal`. */
exports.decideSignal = (0, workflow_1.defineSignal)('decide');
/** The same decision with an answer: rejected up front when already decided or malformed. */
exports.decideUpdate = (0, workflow_1.defineUpdate)('decideWithAnswer');
exports.approvalStatusQuery = (0, workflow_1.defineQuery)('status');
const { publishRevision, rejectRevision } = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '2 minutes', heartbeatTimeout: '15 seconds', retry: retry_policies_1.storageRetry });
function validDecision(d) {
    const problems = (0, approval_decision_1.approvalDecisionProblems)(d);
    return problems.length === 0 ? undefined : problems.join('; ');
}
/**
 * Holds one revision (id `approval/{revisionId}`) until an approver decides or the
 * optional timeout auto-promotes it. The wait is a durable timer: it survives worker
 * and server restarts. Publication happens here, so the job that held the revision
 * may be long gone.
 */
async function approvalWorkflow(input) {
    (0, input_guard_1.requireValidInput)('approval', (0, workflow_inputs_1.checkApprovalInput)(input));
    const { revision, timeoutMs } = input;
    const indexed = (0, scope_index_1.indexAcks)();
    let decision;
    const deadline = timeoutMs === undefined ? undefined : new Date((0, workflow_1.workflowInfo)().startTime.getTime() + timeoutMs).toISOString();
    const status = () => ({ revisionId: revision.revisionId, decided: decision !== undefined, decision, deadline });
    (0, workflow_1.setHandler)(exports.decideSignal, (d) => {
        // A signal cannot answer; the first valid decision wins and later ones are ignored.
        if (decision === undefined && validDecision(d) === undefined)
            decision = d;
    });
    (0, workflow_1.setHandler)(exports.decideUpdate, (d) => {
        decision = d;
        return status();
    }, {
        validator: (d) => {
            if (decision !== undefined)
                throw new Error(`revision ${revision.revisionId} was already ${decision.decision === 'approve' ? 'approved' : 'rejected'} by ${decision.reviewer}`);
            const problem = validDecision(d);
            if (problem)
                throw new Error(problem);
        },
    });
    (0, workflow_1.setHandler)(exports.approvalStatusQuery, status);
    const decided = timeoutMs === undefined ? (await (0, workflow_1.condition)(() => decision !== undefined), true) : await (0, workflow_1.condition)(() => decision !== undefined, timeoutMs);
    const at = new Date().toISOString(); // workflow time: deterministic
    const opId = (0, operations_1.operationId)((0, workflow_1.workflowInfo)().workflowId, 'decision');
    if (!decided) {
        const r = await publishRevision({ revision, actor: 'auto-expire', reason: `approval timeout of ${timeoutMs} ms expired`, at, auditAction: 'auto_expire', opId, requireParentId: input.requireParentId });
        await indexed.until(revision.skillId, r.indexSeq, '30 seconds');
        return { revisionId: revision.revisionId, decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'auto_expired', reviewer: 'auto-expire', comment: '', finalStatus: r.status };
    }
    const d = decision;
    const comment = d.comment ?? '';
    if (d.decision === 'reject') {
        const r = await rejectRevision({ revision, actor: d.reviewer, reason: comment || 'rejected by approver', at, opId });
        return { revisionId: revision.revisionId, decision: 'rejected', reviewer: d.reviewer, comment, finalStatus: r.status };
    }
    const r = await publishRevision({ revision, actor: d.reviewer, reason: comment || 'approved', at, auditAction: 'approve', opId, requireParentId: input.requireParentId });
    // Read-your-writes: the approver's next look (or an agent's refresh) sees the publication.
    await indexed.until(revision.skillId, r.indexSeq, '30 seconds');
    return { revisionId: revision.revisionId, decision: r.outcome === 'stale_parent' ? 'stale_parent' : 'approved', reviewer: d.reviewer, comment, finalStatus: r.status };
}
//# sourceMappingURL=approval.js.map