"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseSections = parseSections;
exports.findSection = findSection;
exports.sectionJson = sectionJson;
exports.contractViolation = contractViolation;
exports.sectionShape = sectionShape;
const http_util_1 = require("./http-util");
const HEADING = /^##\s+(.+?)\s*#*\s*$/;
const FENCE_OPEN = /^\s*```[A-Za-z0-9_-]*\s*$/;
const FENCE_CLOSE = /^\s*```\s*$/;
/**
 * Splits a Markdown prompt into `## Heading` sections. Headings inside fenced blocks are
 * ignored, so JSON payloads may contain anything except a line that is only ``` .
 */
function parseSections(markdown) {
    const sections = new Map();
    let current;
    let fenceLines;
    const textLines = new Map();
    for (const line of markdown.split(/\r?\n/)) {
        if (fenceLines) {
            if (FENCE_CLOSE.test(line)) {
                if (current && current.fenced === undefined)
                    current.fenced = fenceLines.join('\n');
                fenceLines = undefined;
            }
            else {
                fenceLines.push(line);
            }
            continue;
        }
        if (FENCE_OPEN.test(line)) {
            fenceLines = [];
            continue;
        }
        const heading = HEADING.exec(line);
        if (heading) {
            current = { title: heading[1], text: '' };
            textLines.set(current, []);
            const key = normalizeTitle(heading[1]);
            if (!sections.has(key))
                sections.set(key, current);
            continue;
        }
        if (current)
            textLines.get(current).push(line);
    }
    for (const [section, lines] of textLines)
        section.text = lines.join('\n').trim();
    return sections;
}
function normalizeTitle(title) {
    return title.trim().toLowerCase();
}
function findSection(sections, title) {
    return sections.get(normalizeTitle(title));
}
/** Reads `## title` followed by a ```json block; a missing optional section yields undefined. */
function sectionJson(sections, title, required) {
    const section = findSection(sections, title);
    if (!section || section.fenced === undefined) {
        if (!required)
            return undefined;
        throw contractViolation(`the prompt has no "## ${title}" section followed by a \`\`\`json block`);
    }
    try {
        return JSON.parse(section.fenced);
    }
    catch (e) {
        throw contractViolation(`the \`\`\`json block under "## ${title}" is not valid JSON: ${e.message}`);
    }
}
/** The prompt does not follow the documented contract: a client bug, answered with 400. */
function contractViolation(message) {
    return new http_util_1.HttpError(400, `prompt contract violation: ${message}`, 'invalid_request_error', 'prompt_contract_violation');
}
/** Validates a section's JSON against the shape the contract documents. */
function sectionShape(schema, value, section) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw contractViolation(`"## ${section}" has the wrong shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    return parsed.data;
}
//# sourceMappingURL=prompt-sections.js.map