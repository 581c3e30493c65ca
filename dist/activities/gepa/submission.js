"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.outcomeFromEvidence = outcomeFromEvidence;
exports.submissionActivities = submissionActivities;
const activity_1 = require("@temporalio/activity");
const core_1 = require("../../core");
const governance_1 = require("../../core/governance");
const errors_1 = require("../errors");
const existing_skills_1 = require("../existing-skills");
const record_1 = require("../record");
const ids_1 = require("../../workflows/gepa/ids");
const failures_1 = require("./failures");
/** The outcome the Effectiveness gate reads: the winner's paired Holdout evidence (reference: outcomeFromEvidence). */
function outcomeFromEvidence(evidence) {
    if (evidence.caseCount <= 0)
        return undefined;
    return {
        status: 'success',
        score: evidence.candidateHoldoutScore,
        notes: `paired holdout delta ${evidence.delta.toFixed(4)} across ${evidence.caseCount} cases (experiment ${evidence.experimentId})`,
        evaluator: 'gepa',
    };
}
/**
 * Governed submission of a promotion-eligible winner. Only an update of an existing,
 * managed skill whose active revision is still the experiment's parent; the automatic
 * gates run again with an outcome derived from the evidence, and a revision that passes
 * them is stored pending_approval (gepa revisions always wait for a person). Nothing
 * here touches the active pointer. Idempotent: the revision id is a function of the
 * experiment, and a retry finds the revision it already stored.
 */
function submissionActivities({ store }) {
    const recorder = (0, record_1.recordActivities)({ store });
    return {
        async submitExperimentCandidate(input) {
            let scopeKey;
            try {
                scopeKey = (0, core_1.scopeKey)(input.scope);
            }
            catch (e) {
                throw activity_1.ApplicationFailure.nonRetryable(`invalid scope: ${e.message}`, failures_1.GEPA_NON_RETRYABLE.request);
            }
            const revisionId = (0, core_1.revisionIdFor)((0, ids_1.submissionJobId)(input.experimentId), 0);
            return (0, errors_1.withStoreErrors)(async () => {
                const stored = await store.readRevision(scopeKey, input.skillId, revisionId);
                // A retry after the revision was stored: make sure its audit trail was written too (idempotent).
                if (stored)
                    await recorder.recordRevision({ revision: stored });
                if (stored)
                    return { status: stored.status === 'rejected' ? 'rejected' : 'submitted', reason: `revision ${revisionId} is ${stored.status}`, scopeKey, revisionId, revisionStatus: stored.status };
                const active = await store.readActive(scopeKey, input.skillId);
                if (!(0, core_1.isLivePointer)(active?.pointer)) {
                    return { status: 'rejected', reason: `skill ${input.skillId} has no active revision in ${scopeKey}: GEPA submission only updates an existing skill`, scopeKey, revisionId };
                }
                const pointer = active.pointer;
                if (!pointer.managed) {
                    return { status: 'rejected', reason: `skill ${input.skillId} is not in the managed area: automated updates are not allowed`, scopeKey, revisionId };
                }
                if (pointer.revisionId !== input.parentRevisionId) {
                    const reason = `stale parent: the active revision of skill ${input.skillId} is ${pointer.revisionId}, but the experiment started from ${input.parentRevisionId}; the active skill was left unchanged`;
                    await store.appendAudit({ id: `${revisionId}-stale_parent`, at: input.at, action: 'stale_parent', skillId: input.skillId, scopeKey, actor: 'gepa', reason });
                    return { status: 'stale_parent', reason, scopeKey, revisionId };
                }
                const revision = (0, governance_1.buildGovernedRevision)({
                    // An update keeps the skill's identity, whatever the seed was called.
                    candidate: { action: 'update', source: 'gepa', spec: { ...input.spec, name: pointer.spec.name }, targetName: pointer.spec.name },
                    revisionId,
                    skillId: input.skillId,
                    parentId: input.parentRevisionId,
                    jobId: (0, ids_1.submissionJobId)(input.experimentId),
                    scope: input.scope,
                    scopeKey,
                    reason: `GEPA experiment ${input.experimentId}: holdout ${input.evidence.baselineHoldoutScore.toFixed(4)} → ${input.evidence.candidateHoldoutScore.toFixed(4)} on ${input.evidence.caseCount} cases`,
                    evidence: input.evidence,
                }, { existing: (0, existing_skills_1.existingSkillsOf)(await store.scopeIndexSnapshot(scopeKey)), outcome: outcomeFromEvidence(input.evidence), governance: input.governance, at: input.at });
                await recorder.recordRevision({ revision });
                const reasons = revision.gates.flatMap((g) => (g.ran && !g.passed ? g.reasons : [])).concat(revision.human?.reasons ?? []);
                return {
                    status: revision.status === 'rejected' ? 'rejected' : 'submitted',
                    reason: `revision ${revisionId} stored as ${revision.status}${reasons.length ? `: ${reasons.join('; ')}` : ''}`,
                    scopeKey,
                    revisionId,
                    revisionStatus: revision.status,
                };
            });
        },
    };
}
//# sourceMappingURL=submission.js.map