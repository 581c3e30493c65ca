"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COMPONENTS = void 0;
exports.reflect = reflect;
exports.missingPhrases = missingPhrases;
/**
 * Deterministic stand-in for the GEPA REFLECTOR model. Same prompt ⇒ same answer.
 *
 * Prompt contract (the reflector activity writes its prompt to match this):
 *  - Role: `response_format = {type:'json_schema', json_schema:{name:'reflection', schema}}`,
 *    or (without a json_schema) a first system message starting with `ROLE: skill-reflector`.
 *  - The user message is Markdown with these sections:
 *      ## Current skill          ```json SkillSpec {name, description, when_to_use, steps[], pitfalls[]}
 *      ## Component to rewrite   one word: steps | pitfalls | when_to_use | description
 *                                (plain text or a fenced block)
 *      ## Case records           ```json [{caseId, input, expected, output, score, feedback, trace}]
 *    Missing/invalid sections ⇒ HTTP 400 `prompt_contract_violation`.
 *
 * Answer (JSON in `message.content`): {component, new_value, rationale}
 *   new_value is string[] for steps/pitfalls, string for description/when_to_use.
 *
 * Rules:
 *  - Phrases: every line of every `feedback` (or every string inside structured feedback) of the form
 *    `missing: <phrase>` (optionally bulleted, case-insensitive), trailing period dropped,
 *    distinct case-insensitively, in order of first appearance across the records.
 *  - A phrase already mentioned (case-insensitive substring) in the component is skipped.
 *  - steps: append "Make sure to <phrase>." per new phrase.
 *  - pitfalls: append "Do not forget to <phrase>." per new phrase.
 *  - description / when_to_use: append " Make sure to cover: <p1>; <p2>."
 *  - No new phrase ⇒ the current value unchanged. Only the requested component is returned.
 */
const zod_1 = require("zod");
const prompt_sections_1 = require("./prompt-sections");
exports.COMPONENTS = ['steps', 'pitfalls', 'when_to_use', 'description'];
const CurrentSkillSchema = zod_1.z
    .object({
    name: zod_1.z.string(),
    description: zod_1.z.string().default(''),
    when_to_use: zod_1.z.string().default(''),
    steps: zod_1.z.array(zod_1.z.string()).default([]),
    pitfalls: zod_1.z.array(zod_1.z.string()).default([]),
})
    .loose();
const CaseRecordsSchema = zod_1.z.array(zod_1.z.object({ caseId: zod_1.z.unknown().optional(), feedback: zod_1.z.unknown().optional() }).loose());
const MISSING_LINE = /^\s*(?:[-*•]\s*)?missing:\s*(.+?)\s*$/i;
function reflect(userPrompt) {
    const sections = (0, prompt_sections_1.parseSections)(userPrompt);
    const skill = (0, prompt_sections_1.sectionShape)(CurrentSkillSchema, (0, prompt_sections_1.sectionJson)(sections, 'Current skill', true), 'Current skill');
    const records = (0, prompt_sections_1.sectionShape)(CaseRecordsSchema, (0, prompt_sections_1.sectionJson)(sections, 'Case records', true), 'Case records');
    const component = componentToRewrite(sections);
    const phrases = missingPhrases(records.map((r) => r.feedback));
    const current = skill[component];
    const mentioned = (phrase) => (Array.isArray(current) ? current : [current]).some((t) => t.toLowerCase().includes(phrase.toLowerCase()));
    const fresh = phrases.filter((p) => !mentioned(p));
    let newValue;
    if (Array.isArray(current)) {
        const template = component === 'steps' ? (p) => `Make sure to ${p}.` : (p) => `Do not forget to ${p}.`;
        newValue = [...current, ...fresh.map(template)];
    }
    else {
        newValue = fresh.length === 0 ? current : `${current.trimEnd()}${current.trim() ? ' ' : ''}Make sure to cover: ${fresh.join('; ')}.`;
    }
    return { skillName: skill.name, reflection: { component, new_value: newValue, rationale: rationale(component, phrases, fresh, records.length) } };
}
function componentToRewrite(sections) {
    const section = (0, prompt_sections_1.findSection)(sections, 'Component to rewrite');
    if (!section)
        throw (0, prompt_sections_1.contractViolation)('the prompt has no "## Component to rewrite" section');
    const word = (section.text || section.fenced || '').trim().replace(/^`+|`+$/g, '').trim().toLowerCase();
    const component = exports.COMPONENTS.find((c) => c === word);
    if (!component)
        throw (0, prompt_sections_1.contractViolation)(`"## Component to rewrite" must be one of ${exports.COMPONENTS.join(' | ')}, got "${word}"`);
    return component;
}
function missingPhrases(feedbacks) {
    const seen = new Set();
    const phrases = [];
    for (const feedback of feedbacks) {
        for (const line of stringLeaves(feedback).join('\n').split(/\r?\n/)) {
            const m = MISSING_LINE.exec(line);
            if (!m)
                continue;
            const phrase = m[1].replace(/[."',\s]+$/, '').trim();
            const key = phrase.toLowerCase();
            if (!phrase || seen.has(key))
                continue;
            seen.add(key);
            phrases.push(phrase);
        }
    }
    return phrases;
}
/** Feedback is normally a string; structured feedback is searched in all its string values. */
function stringLeaves(value) {
    if (typeof value === 'string')
        return [value];
    if (Array.isArray(value))
        return value.flatMap(stringLeaves);
    if (typeof value === 'object' && value !== null)
        return Object.values(value).flatMap(stringLeaves);
    return [];
}
function rationale(component, all, fresh, caseCount) {
    if (all.length === 0)
        return `No feedback across ${caseCount} case(s) reported anything missing; ${component} is unchanged.`;
    if (fresh.length === 0)
        return `Feedback reported missing: ${all.join('; ')}; ${component} already covers all of it, so it is unchanged.`;
    return `Feedback across ${caseCount} case(s) reported missing: ${all.join('; ')}. Added ${fresh.join('; ')} to ${component}.`;
}
//# sourceMappingURL=reflector.js.map