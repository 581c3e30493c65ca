"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.planRevisions = planRevisions;
const reconcile_1 = require("../learning/reconcile");
const revision_id_1 = require("../learning/revision-id");
const scope_key_1 = require("../skills/scope-key");
const build_revision_1 = require("./build-revision");
/**
 * From a reviewer decision to governed revisions, deterministically: reconcile against
 * the scope's skills, then one revision per surviving candidate, with ids derived from
 * (job id, ordinal) so a replay or retry never mints a second revision.
 */
function planRevisions(input) {
    const { decision, events } = (0, reconcile_1.reconcileDecision)(input.decision, input.existingSkills);
    const dropped = events.filter((e) => e.kind.startsWith('drop_')).map((e) => ({ name: e.original, list: e.list, reason: e.reason }));
    const rewrites = events.filter((e) => e.kind.startsWith('rewrite_')).map((e) => ({ name: e.original, list: e.list, reason: e.reason }));
    const drafts = [];
    for (const spec of decision.creates) {
        drafts.push({ candidate: { action: 'create', source: 'reviewer', spec, targetName: spec.name }, skillId: (0, scope_key_1.skillIdForName)(spec.name), reason: 'new skill proposed by the reviewer' });
    }
    for (const update of decision.updates) {
        const target = (0, reconcile_1.findExistingSkill)(update.name, input.existingSkills);
        if (!target)
            continue; // the reconciler already dropped unknown targets
        drafts.push({
            candidate: { action: 'update', source: 'reviewer', spec: { ...update.new_spec, name: target.name }, targetName: target.name },
            skillId: target.skillId,
            parentId: target.revisionId,
            reason: update.reason || 'update proposed by the reviewer',
        });
    }
    for (const name of decision.deletions) {
        const target = (0, reconcile_1.findExistingSkill)(name, input.existingSkills);
        if (!target)
            continue;
        drafts.push({ candidate: { action: 'delete', source: 'reviewer', targetName: target.name }, skillId: target.skillId, parentId: target.revisionId, reason: 'deletion proposed by the reviewer' });
    }
    const revisions = drafts.map((d, ordinal) => (0, build_revision_1.buildGovernedRevision)({ ...d, revisionId: (0, revision_id_1.revisionIdFor)(input.jobId, ordinal), jobId: input.jobId, scope: input.scope, scopeKey: input.scopeKey }, { existing: input.existingSkills, outcome: input.outcome, governance: input.governance, at: input.at }));
    return { revisions, dropped, rewrites };
}
//# sourceMappingURL=plan.js.map