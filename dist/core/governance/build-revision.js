"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.buildGovernedRevision = buildGovernedRevision;
const gates_1 = require("../learning/gates");
/**
 * Runs the gates on one candidate and returns the revision to store. A revision that
 * passes everything (or is bypassed by shadow mode) is stored as `pending` and moves to
 * `active` only by publication: generating a candidate never changes what agents load.
 */
function buildGovernedRevision(draft, context) {
    const run = (0, gates_1.runGates)({
        candidate: draft.candidate,
        existing: context.existing,
        outcome: context.outcome,
        settings: { humanGate: context.governance.humanGate, effectivenessThreshold: context.governance.effectivenessThreshold },
    });
    const verdict = (0, gates_1.finalStatus)(run, { shadowMode: context.governance.shadowMode, source: draft.candidate.source });
    const status = verdict.status === 'active' ? 'pending' : verdict.status;
    return {
        id: draft.revisionId,
        skillId: draft.skillId,
        scopeKey: draft.scopeKey,
        scope: draft.scope,
        action: draft.candidate.action,
        status,
        spec: draft.candidate.spec,
        parentId: draft.parentId,
        source: draft.candidate.source,
        jobId: draft.jobId,
        reason: draft.reason,
        gates: run.gates,
        human: run.human,
        evidence: draft.evidence,
        shadowBypassed: verdict.shadowBypassed,
        createdAt: context.at,
        updatedAt: context.at,
        history: [],
    };
}
//# sourceMappingURL=build-revision.js.map