"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lf = void 0;
exports.normalizeSkillSpec = normalizeSkillSpec;
exports.renderSkillMarkdown = renderSkillMarkdown;
exports.yamlDoubleQuoted = yamlDoubleQuoted;
// Rendering half of SKILL.md (see skill-markdown.ts for the format): no schema, so the
// workflow code that renders and normalizes specs stays free of zod.
const lf = (s) => s.replace(/\r\n?/g, '\n');
exports.lf = lf;
/** `\n` line endings, whitespace-only lines emptied, surrounding whitespace trimmed. */
const cleanBlock = (s) => (0, exports.lf)(s)
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : line))
    .join('\n')
    .trim();
/** The canonical form of a spec: what a render/parse round trip preserves. */
function normalizeSkillSpec(spec) {
    const list = (items) => (items ?? []).map(cleanBlock).filter((s) => s !== '');
    return {
        name: spec.name.trim(),
        description: spec.description.trim(),
        when_to_use: cleanBlock(spec.when_to_use),
        steps: list(spec.steps),
        pitfalls: list(spec.pitfalls),
    };
}
function renderSkillMarkdown(input) {
    const spec = normalizeSkillSpec(input);
    const out = [
        '---',
        `name: ${yamlDoubleQuoted(spec.name)}`,
        `description: ${yamlDoubleQuoted(spec.description)}`,
        '---',
        '',
        `# ${spec.name.replace(/\s+/g, ' ')}`,
        '',
        '## When to use',
        '',
    ];
    if (spec.when_to_use !== '')
        out.push(...spec.when_to_use.split('\n').map(escapeTextLine), '');
    out.push('## Steps', '');
    spec.steps.forEach((step, i) => out.push(...renderListItem(`${i + 1}. `, step)));
    if (spec.pitfalls.length > 0) {
        out.push('', '## Pitfalls', '');
        for (const pitfall of spec.pitfalls)
            out.push(...renderListItem('- ', pitfall));
    }
    return out.join('\n') + '\n';
}
/** A list item whose continuation lines are indented to the item's content column. */
function renderListItem(marker, text) {
    const indent = ' '.repeat(marker.length);
    return text.split('\n').map((line, i) => (i === 0 ? marker + line : line === '' ? '' : indent + line));
}
/** Free-text lines that could read as a heading (or as our own escape) get a leading backslash. */
function escapeTextLine(line) {
    return /^[#\\]/.test(line) ? `\\${line}` : line;
}
/** A YAML double-quoted scalar; JSON escaping plus every non-printable YAML character as \uXXXX. */
function yamlDoubleQuoted(value) {
    return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
//# sourceMappingURL=skill-markdown-render.js.map