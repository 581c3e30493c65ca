"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.reviewerMessages = reviewerMessages;
const core_1 = require("../../core");
const SYSTEM = `ROLE: skill-reviewer
You review a finished segment of an AI agent's session and decide whether it revealed a
reusable method worth keeping as a Skill (a procedure: when to use it, ordered steps,
pitfalls). Prefer updating an existing skill over creating a near-duplicate. Never invent
steps the agent did not execute. Never include secrets, credentials or destructive commands.
When a session outcome is given and it failed, capture what went wrong as pitfalls.
If nothing reusable happened, answer with a non-empty skip_reason and empty lists.
Answer only with JSON matching the schema: {skip_reason, creates, updates, deletions}.`;
function section(title, value) {
    return `## ${title}\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}
/** The reviewer prompt; its section layout is the contract the local model server parses. */
function reviewerMessages(input) {
    const parts = [
        section('Session', input.session),
        section('Transcript', input.transcript),
        section('Existing skills', input.existingSkills),
    ];
    // Redacted again here: a segment started without the client never passed its redaction.
    if (input.outcome)
        parts.push(section('Session outcome', (0, core_1.redactOutcome)(input.outcome)));
    return [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: parts.join('\n\n') },
    ];
}
//# sourceMappingURL=reviewer-prompt.js.map