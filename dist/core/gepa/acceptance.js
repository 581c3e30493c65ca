"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.judgeMinibatch = judgeMinibatch;
exports.screenProposal = screenProposal;
const components_1 = require("./components");
const evaluations_1 = require("./evaluations");
const reflection_prompt_1 = require("./reflection-prompt");
function formatTotal(n) {
    return n.toFixed(4);
}
/**
 * GEPA's acceptance test: the child is kept only if its minibatch total is
 * STRICTLY higher than the parent's on the same cases under the same paired seed.
 * A mismatch of cases or seed is a bug in the caller, so it throws.
 */
function judgeMinibatch(parent, child) {
    const sameCases = parent.caseIds.length === child.caseIds.length && parent.caseIds.every((id, i) => child.caseIds[i] === id);
    if (!sameCases)
        throw new Error('paired minibatch comparison needs the same cases in the same order for parent and child');
    if (parent.seed !== child.seed)
        throw new Error(`paired minibatch comparison needs one seed, got ${parent.seed} and ${child.seed}`);
    for (const run of [parent, child]) {
        if (run.scores.length !== run.caseIds.length)
            throw new Error(`expected ${run.caseIds.length} minibatch scores, got ${run.scores.length}`);
    }
    const parentTotal = (0, evaluations_1.scoreTotal)(parent.scores);
    const childTotal = (0, evaluations_1.scoreTotal)(child.scores);
    const where = `on ${parent.caseIds.length} feedback cases (seed ${parent.seed})`;
    if (childTotal > parentTotal) {
        return {
            accepted: true,
            outcome: 'accepted',
            reason: `accepted: child minibatch total ${formatTotal(childTotal)} > parent ${formatTotal(parentTotal)} ${where}`,
            parentTotal,
            childTotal,
        };
    }
    return {
        accepted: false,
        outcome: 'not_better',
        reason: `not better: child minibatch total ${formatTotal(childTotal)} does not exceed parent ${formatTotal(parentTotal)} ${where}`,
        parentTotal,
        childTotal,
    };
}
/**
 * Turns the reflector's structured answer into a child spec, or says why not:
 * invalid output (unparseable, other component, invalid spec), no change to the
 * component, or the same content as a candidate already in the pool.
 */
function screenProposal(input) {
    const parsed = (0, reflection_prompt_1.parseReflection)(input.answer, input.component);
    if (!parsed.ok)
        return { ok: false, outcome: 'invalid_reflection', reason: `invalid reflector output: ${parsed.reason}` };
    const applied = (0, components_1.applyComponent)(input.parentSpec, input.component, parsed.newValue);
    if (!applied.ok)
        return { ok: false, outcome: 'invalid_reflection', reason: `invalid reflector output: ${applied.reason}` };
    const fingerprint = (0, components_1.specFingerprint)(applied.spec);
    if (fingerprint === (0, components_1.specFingerprint)(input.parentSpec)) {
        return { ok: false, outcome: 'no_change', reason: `no change: the reflector returned the current ${input.component}` };
    }
    const existing = input.poolFingerprints.get(fingerprint);
    if (existing !== undefined) {
        return { ok: false, outcome: 'duplicate_candidate', reason: `duplicate candidate: same content as candidate ${existing}` };
    }
    return { ok: true, spec: applied.spec, fingerprint, rationale: parsed.rationale };
}
//# sourceMappingURL=acceptance.js.map