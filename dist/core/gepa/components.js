"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMPONENT_ORDER = void 0;
exports.isListComponent = isListComponent;
exports.componentAt = componentAt;
exports.nextComponentCursor = nextComponentCursor;
exports.componentValue = componentValue;
exports.applyComponent = applyComponent;
exports.canonicalSpecJson = canonicalSpecJson;
exports.specFingerprint = specFingerprint;
const gepa_1 = require("../schemas/gepa");
const skill_1 = require("../schemas/skill");
const hash_1 = require("../skills/hash");
/** Round-robin order of the components reflection edits: steps → pitfalls → when_to_use → description. */
exports.COMPONENT_ORDER = skill_1.SKILL_COMPONENTS;
const LIST_COMPONENTS = new Set(['steps', 'pitfalls']);
function isListComponent(component) {
    return LIST_COMPONENTS.has(component);
}
/** The component a cursor points at (cursor counts up forever; it wraps). */
function componentAt(cursor) {
    const n = exports.COMPONENT_ORDER.length;
    return exports.COMPONENT_ORDER[((cursor % n) + n) % n];
}
function nextComponentCursor(cursor) {
    return (cursor + 1) % exports.COMPONENT_ORDER.length;
}
/** The current value of one component (a copy for list components). */
function componentValue(spec, component) {
    switch (component) {
        case 'steps':
            return [...spec.steps];
        case 'pitfalls':
            return [...spec.pitfalls];
        case 'when_to_use':
            return spec.when_to_use;
        case 'description':
            return spec.description;
    }
}
/**
 * A copy of `spec` with ONLY `component` replaced by `value`. Text is trimmed and
 * blank list entries dropped; the resulting spec must still be a valid,
 * optimizable skill, otherwise the reason says why.
 */
function applyComponent(spec, component, value) {
    const child = { ...spec, steps: [...spec.steps], pitfalls: [...spec.pitfalls] };
    if (isListComponent(component)) {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
            return { ok: false, reason: `${component} must be a list of strings` };
        }
        child[component] = value.map((v) => v.trim()).filter((v) => v !== '');
    }
    else {
        if (typeof value !== 'string')
            return { ok: false, reason: `${component} must be a string` };
        child[component] = value.trim();
    }
    const parsed = skill_1.SkillSpecSchema.safeParse(child);
    if (!parsed.success) {
        return { ok: false, reason: parsed.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`).join('; ') };
    }
    const problems = (0, gepa_1.optimizableSpecProblems)(parsed.data);
    if (problems.length > 0)
        return { ok: false, reason: problems.join('; ') };
    return { ok: true, spec: parsed.data };
}
/** Canonical JSON of a spec (fixed key order), the input of its fingerprint. */
function canonicalSpecJson(spec) {
    return JSON.stringify([spec.name, spec.description, spec.when_to_use, spec.steps, spec.pitfalls]);
}
/** Content fingerprint for duplicate detection: 16 hex digits of SHA-256 over the canonical JSON. */
function specFingerprint(spec) {
    return (0, hash_1.shortHash)(canonicalSpecJson(spec), 16);
}
//# sourceMappingURL=components.js.map