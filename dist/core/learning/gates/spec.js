"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SPEC_GATE_DEFAULTS = void 0;
exports.specGate = specGate;
const bounding_1 = require("../../skills/bounding");
const scope_key_1 = require("../../skills/scope-key");
const skill_markdown_render_1 = require("../../skills/skill-markdown-render");
const reconcile_1 = require("../reconcile");
const types_1 = require("./types");
exports.SPEC_GATE_DEFAULTS = { minSteps: 2, maxSteps: 50, maxNameLength: 120, maxSkillBytes: 32 * 1024 };
function specGate(candidate, existing, options = {}) {
    if (candidate.action === 'delete')
        return { gate: 'spec', ran: false, passed: true, held: false, reasons: [types_1.SKIPPED_FOR_DELETE] };
    const spec = candidate.spec;
    if (!spec)
        return { gate: 'spec', ran: true, passed: false, held: false, reasons: ['missing spec body'] };
    const o = { ...exports.SPEC_GATE_DEFAULTS, ...options };
    const reasons = [];
    const name = spec.name.trim();
    if (name === '')
        reasons.push('empty skill name');
    if ([...name].length > o.maxNameLength)
        reasons.push(`name longer than ${o.maxNameLength} characters`);
    if (/[\r\n]/.test(name))
        reasons.push('name must be a single line');
    if (spec.description.trim() === '')
        reasons.push('missing description');
    if (spec.when_to_use.trim() === '')
        reasons.push('missing when_to_use');
    const steps = spec.steps.filter((s) => s.trim() !== '').length;
    if (steps < o.minSteps)
        reasons.push(`needs at least ${o.minSteps} steps, got ${steps}`);
    if (steps > o.maxSteps)
        reasons.push(`has ${steps} steps, more than the limit of ${o.maxSteps}`);
    const size = (0, bounding_1.utf8ByteLength)((0, skill_markdown_render_1.renderSkillMarkdown)(spec));
    if (size > o.maxSkillBytes)
        reasons.push(`SKILL.md is ${size} bytes, more than the limit of ${o.maxSkillBytes}`);
    // Identity checks apply to creates only: an update keeps its skill's identity by design.
    if (candidate.action === 'create' && name !== '') {
        const id = (0, scope_key_1.skillIdForName)(name);
        const duplicate = existing.find((e) => e.skillId === id || (0, scope_key_1.skillIdForName)(e.name) === id || (0, reconcile_1.normalizeSkillName)(e.name) === (0, reconcile_1.normalizeSkillName)(name));
        if (duplicate)
            reasons.push(`duplicate of existing skill "${duplicate.name}"; should be an update, not a create`);
        const parent = (0, reconcile_1.findQuantifiedSiblingParent)(name, existing) ?? (0, reconcile_1.findGenericParent)(name, existing);
        if (parent !== undefined)
            reasons.push(`count-specific sibling of generic parent "${parent}"; should be an update`);
    }
    return { gate: 'spec', ran: true, passed: reasons.length === 0, held: false, reasons };
}
//# sourceMappingURL=spec.js.map