"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runHoldout = runHoldout;
exports.submitWinner = submitWinner;
const workflow_1 = require("@temporalio/workflow");
const common_1 = require("@temporalio/common");
const core_1 = require("../../core");
const governance_1 = require("../../core/governance");
const approval_1 = require("../approval");
const retry_policies_1 = require("../retry-policies");
const failure_1 = require("./failure");
const ids_1 = require("./ids");
const search_1 = require("./search");
const storage = (0, workflow_1.proxyActivities)({ startToCloseTimeout: '2 minutes', retry: retry_policies_1.storageRetry });
/**
 * Frozen confirmation: seed and Validation winner on Holdout under one paired seed (the
 * two batches run in parallel), then the promotion assessment, whose reason is always
 * filled. A failed Holdout run leaves the winner ineligible and reports the error.
 */
async function runHoldout(context, state) {
    const winner = (0, core_1.winnerOf)(state);
    const seed = (0, core_1.seedCandidate)(state);
    const holdout = context.dataset.holdout;
    const assess = (seedScores, winnerScores) => (0, core_1.assessPromotion)({ winnerIsSeed: winner.isSeed, holdoutCases: holdout, seedHoldoutScores: seedScores, winnerHoldoutScores: winnerScores, minHoldoutImprovement: context.options.minHoldoutImprovement });
    if (holdout.length === 0)
        return { state, promotion: assess([], []), winnerObjectives: {}, seedObjectives: {} };
    const charged = (0, core_1.chargeMetricCalls)(state, (0, core_1.holdoutCalls)(holdout.length, winner.isSeed), 'holdout');
    const caseIds = holdout.map((c) => c.id);
    const batch = (recordId, candidateId, spec = seed.spec) => (0, search_1.evaluateBatch)(context, { recordId, phase: recordId === ids_1.recordIds.holdoutSeed ? 'holdout-seed' : 'holdout-winner', split: 'holdout', caseIds, candidateId, spec, seed: state.holdoutSeed });
    try {
        const [seedRun, winnerRun] = await Promise.all([
            batch(ids_1.recordIds.holdoutSeed, seed.id),
            winner.isSeed ? undefined : batch(ids_1.recordIds.holdoutWinner, winner.id, winner.candidate.spec),
        ]);
        const winnerScores = (winnerRun ?? seedRun).scores;
        return { state: charged, promotion: assess(seedRun.scores, winnerScores), winnerObjectives: (winnerRun ?? seedRun).objectives, seedObjectives: seedRun.objectives };
    }
    catch (e) {
        const error = `holdout evaluation failed: ${(0, failure_1.failureMessage)(e)}`;
        return { state: charged, promotion: { eligible: false, reason: `${error}; promotion was not assessed` }, winnerObjectives: {}, seedObjectives: {}, error };
    }
}
function objectiveLines(seed, winner) {
    return Object.entries(winner).map(([name, value]) => `${name}: ${seed[name] !== undefined ? `${seed[name].toFixed(4)} → ` : ''}${value.toFixed(4)}`);
}
/**
 * Governed submission of an eligible winner: the gates run again in an activity and a
 * revision that passes waits in pending_approval, in an approval workflow that outlives
 * this experiment (abandoned child, id from the revision id). Publication later requires
 * the active revision to still be the experiment's parent.
 */
async function submitWinner(context, state, holdout) {
    if (!context.submit)
        return { submission: { status: 'not_requested', reason: 'submit was not requested' } };
    if (!holdout.promotion.eligible)
        return { submission: { status: 'skipped', reason: `not submitted: ${holdout.promotion.reason}` } };
    const comparison = holdout.promotion.holdout;
    const winner = (0, core_1.winnerOf)(state);
    const evidence = {
        experimentId: context.experimentId,
        datasetId: context.dataset.id,
        datasetVersion: context.dataset.version,
        baselineHoldoutScore: comparison.seedMean,
        candidateHoldoutScore: comparison.winnerMean,
        delta: comparison.delta,
        caseCount: comparison.caseCount,
        objectives: objectiveLines(holdout.seedObjectives, holdout.winnerObjectives),
    };
    try {
        const governance = await storage.loadGovernance();
        const r = await storage.submitExperimentCandidate({
            experimentId: context.experimentId,
            scope: context.scope,
            skillId: context.skillId,
            parentRevisionId: context.parentRevisionId,
            spec: winner.candidate.spec,
            evidence,
            governance,
            at: new Date().toISOString(),
        });
        const submission = { status: r.status, reason: r.reason, ...(r.revisionStatus ? { revisionId: r.revisionId, revisionStatus: r.revisionStatus } : {}) };
        if (r.revisionStatus === 'pending_approval') {
            const workflowId = (0, governance_1.approvalWorkflowId)(r.revisionId);
            try {
                await (0, workflow_1.startChild)(approval_1.approvalWorkflow, {
                    workflowId,
                    args: [{ revision: { scopeKey: r.scopeKey, skillId: context.skillId, revisionId: r.revisionId }, timeoutMs: governance.approvalTimeoutMs, requireParentId: context.parentRevisionId, source: 'gepa' }],
                    parentClosePolicy: workflow_1.ParentClosePolicy.ABANDON,
                    searchAttributes: { EvolutionRevisionId: [r.revisionId], EvolutionSkillId: [context.skillId], EvolutionScopeKey: [r.scopeKey], EvolutionKind: ['approval'] },
                });
            }
            catch (e) {
                if (!(e instanceof common_1.WorkflowExecutionAlreadyStartedError))
                    throw e;
            }
            submission.approvalWorkflowId = workflowId;
        }
        return { submission };
    }
    catch (e) {
        const error = `submission failed: ${(0, failure_1.failureMessage)(e)}`;
        return { submission: { status: 'failed', reason: error }, error };
    }
}
//# sourceMappingURL=finish.js.map