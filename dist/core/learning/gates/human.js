"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.humanGate = humanGate;
/**
 * Human gate: after every automatic gate passed, should a person approve this
 * change before it is published? A policy is data, so it can live in
 * configuration and workflow inputs:
 *   none | create_only | always | { holdActions?, holdSources?, holdNamePattern? }
 * A custom policy holds when any of its conditions matches. Evaluating a
 * policy never throws: any error (unknown mode, invalid regex) holds, failing
 * closed. Externally evaluated (gepa) revisions are always held.
 */
function humanGate(candidate, policy) {
    if (candidate.source === 'gepa')
        return { held: true, reasons: ['externally evaluated revisions require approval'] };
    try {
        const reasons = holdReasons(candidate, policy);
        return { held: reasons.length > 0, reasons };
    }
    catch (e) {
        return { held: true, reasons: [`human gate policy error (held, failing closed): ${e.message}`] };
    }
}
function holdReasons(candidate, policy) {
    if (policy === 'none')
        return [];
    if (policy === 'always')
        return ['policy "always" holds every revision'];
    if (policy === 'create_only')
        return candidate.action === 'create' ? ['policy "create_only" holds new skills'] : [];
    const custom = checkedCustomPolicy(policy);
    const reasons = [];
    if (custom.holdActions?.includes(candidate.action))
        reasons.push(`policy holds ${candidate.action} revisions`);
    if (custom.holdSources?.includes(candidate.source))
        reasons.push(`policy holds revisions from ${candidate.source}`);
    if (custom.holdNamePattern !== undefined) {
        const pattern = new RegExp(custom.holdNamePattern);
        const names = [candidate.targetName, candidate.spec?.name].filter((n) => n !== undefined);
        if (names.some((n) => pattern.test(n)))
            reasons.push(`skill name matches /${custom.holdNamePattern}/`);
    }
    return reasons;
}
const ACTIONS = ['create', 'update', 'delete'];
const SOURCES = ['reviewer', 'gepa', 'rollback', 'manual'];
const CUSTOM_KEYS = ['holdActions', 'holdSources', 'holdNamePattern'];
/**
 * The rules of CustomHumanGatePolicySchema, checked without zod (this runs in workflow
 * code, which must stay cheap to instantiate; a unit test keeps the two in agreement).
 * Throws on the first problem; the gate turns that into a hold.
 */
function checkedCustomPolicy(policy) {
    if (typeof policy !== 'object' || policy === null || Array.isArray(policy))
        throw new Error(`unknown human gate policy ${JSON.stringify(policy)}`);
    const p = policy;
    const unknownKeys = Object.keys(p).filter((k) => !CUSTOM_KEYS.includes(k));
    if (unknownKeys.length > 0)
        throw new Error(`unknown human gate policy keys: ${unknownKeys.join(', ')}`);
    const listOf = (key, allowed) => {
        const v = p[key];
        if (v !== undefined && !(Array.isArray(v) && v.every((x) => allowed.includes(x))))
            throw new Error(`${key} must be a list of ${allowed.join(' | ')}`);
    };
    listOf('holdActions', ACTIONS);
    listOf('holdSources', SOURCES);
    const pattern = p.holdNamePattern;
    if (pattern !== undefined && !(typeof pattern === 'string' && pattern.length <= 500))
        throw new Error('holdNamePattern must be a string of at most 500 characters');
    return p;
}
//# sourceMappingURL=human.js.map