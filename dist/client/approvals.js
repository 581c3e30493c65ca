"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.listPending = listPending;
exports.showRevision = showRevision;
exports.decideRevision = decideRevision;
exports.listSkillRevisions = listSkillRevisions;
exports.approvalDeadline = approvalDeadline;
const client_1 = require("@temporalio/client");
const core_1 = require("../core");
const governance_1 = require("../core/governance");
const workflows_1 = require("../workflows");
const errors_1 = require("./errors");
async function mustFind(store, revisionId) {
    const rev = await store.findRevision(revisionId);
    if (!rev)
        throw new errors_1.NotFoundError(`no revision ${revisionId}`);
    return rev;
}
/** Revisions waiting for a person (pending_approval) or an evaluation (pending_eval) in one scope. */
async function listPending(store, scopeKey, statuses = ['pending_approval', 'pending_eval']) {
    return store.listRevisionsByStatus(scopeKey, statuses);
}
async function showRevision(store, revisionId) {
    const revision = await mustFind(store, revisionId);
    const active = await store.readActive(revision.scopeKey, revision.skillId);
    const before = (0, core_1.isLivePointer)(active?.pointer) ? active.pointer.spec : undefined;
    const after = revision.action === 'delete' ? undefined : revision.spec;
    return { revision, activeRevisionId: active?.pointer.revisionId, diff: (0, core_1.skillDiff)(before, after) };
}
/**
 * Approves or rejects a held revision through its approval workflow (an update, so the
 * caller hears about an invalid or second decision), then waits for publication.
 */
async function decideRevision(deps, revisionId, decision) {
    const rev = await mustFind(deps.store, revisionId);
    if (rev.status !== 'pending_approval') {
        const who = rev.human?.reviewer ? ` by ${rev.human.reviewer}` : '';
        throw new errors_1.StateError(`revision ${revisionId} is not waiting for approval: it is ${rev.status}${who}`);
    }
    const handle = deps.client.workflow.getHandle((0, governance_1.approvalWorkflowId)(revisionId));
    try {
        // The comment goes into workflow history and the audit trail: credentials never do.
        await handle.executeUpdate(workflows_1.decideUpdate, { args: [{ ...decision, ...(decision.comment !== undefined ? { comment: (0, core_1.redactSecrets)(decision.comment) } : {}) }] });
    }
    catch (e) {
        if (e instanceof client_1.WorkflowNotFoundError)
            throw new errors_1.StateError(`revision ${revisionId} has no open approval (it was decided meanwhile)`);
        const cause = e.cause;
        throw new errors_1.StateError(cause?.message ?? e.message);
    }
    return handle.result();
}
/** Every revision of one skill with its status, oldest first (the console's timeline reads statuses only here). */
async function listSkillRevisions(store, scopeKey, skillId) {
    return store.listRevisions(scopeKey, skillId);
}
/**
 * When a held revision's approval auto-expires (undefined: it waits for a person forever,
 * is no longer open, or no worker answered within `waitMs`: a query needs a worker).
 */
async function approvalDeadline(client, revisionId, waitMs = 2_000) {
    try {
        const handle = client.workflow.getHandle((0, governance_1.approvalWorkflowId)(revisionId));
        return (await client.withDeadline(Date.now() + waitMs, () => handle.query(workflows_1.approvalStatusQuery))).deadline;
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=approvals.js.map