"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TRANSCRIPT_DEFAULTS = void 0;
exports.buildTranscript = buildTranscript;
exports.renderTranscript = renderTranscript;
exports.boundExistingSkills = boundExistingSkills;
const session_1 = require("../schemas/session");
const bounding_1 = require("../skills/bounding");
const redaction_1 = require("../skills/redaction");
exports.TRANSCRIPT_DEFAULTS = { maxMessageBytes: 4000, maxArgumentBytes: 2000, maxNameBytes: 128, maxTotalBytes: 160_000 };
const clean = (text, maxBytes) => (0, bounding_1.boundText)((0, redaction_1.redactSecrets)(text), maxBytes);
function buildTranscript(events, options = {}) {
    const maxMessageBytes = options.maxMessageBytes ?? exports.TRANSCRIPT_DEFAULTS.maxMessageBytes;
    const maxArgumentBytes = options.maxArgumentBytes ?? exports.TRANSCRIPT_DEFAULTS.maxArgumentBytes;
    const maxTotalBytes = options.maxTotalBytes ?? exports.TRANSCRIPT_DEFAULTS.maxTotalBytes;
    const maxNameBytes = options.maxNameBytes ?? exports.TRANSCRIPT_DEFAULTS.maxNameBytes;
    const cleanName = (name) => clean(name.trim(), maxNameBytes);
    const toolNames = new Map();
    const messages = [];
    for (const event of events) {
        if (!options.includeSystem && (event.role === 'system' || event.role === 'developer'))
            continue;
        for (const call of event.tool_calls ?? [])
            if (call.id)
                toolNames.set(call.id, call.function.name);
        const message = { role: event.role, content: clean((0, session_1.messageText)(event).trim(), maxMessageBytes) };
        if (event.role === 'tool') {
            const name = (event.tool_call_id !== undefined ? toolNames.get(event.tool_call_id) : undefined) ?? event.name;
            if (name)
                message.toolName = cleanName(name);
        }
        if (event.tool_calls?.length) {
            message.toolCalls = event.tool_calls.map((c) => ({ name: cleanName(c.function.name), arguments: clean(c.function.arguments.trim(), maxArgumentBytes) }));
        }
        if (message.content === '' && !message.toolCalls && !message.toolName)
            continue;
        messages.push(message);
    }
    return fitTotal(messages, maxTotalBytes);
}
function messageBytes(m) {
    return (0, bounding_1.utf8ByteLength)(m.content) + (m.toolCalls ?? []).reduce((n, c) => n + (0, bounding_1.utf8ByteLength)(c.name) + (0, bounding_1.utf8ByteLength)(c.arguments), 0) + 32;
}
/** Keep the first and last messages (the task and how it ended) within half the budget each. */
function fitTotal(messages, maxTotalBytes) {
    const sizes = messages.map(messageBytes);
    if (sizes.reduce((a, b) => a + b, 0) <= maxTotalBytes)
        return { messages };
    const half = Math.floor(maxTotalBytes / 2);
    let head = 0;
    for (let used = 0; head < messages.length && used + sizes[head] <= half; head++)
        used += sizes[head];
    let tail = messages.length;
    for (let used = 0; tail > head && used + sizes[tail - 1] <= half; tail--)
        used += sizes[tail - 1];
    return { messages: [...messages.slice(0, head), ...messages.slice(tail)], omitted: { atIndex: head, count: tail - head } };
}
/** Plain-text rendering for the reviewer prompt. */
function renderTranscript(transcript) {
    const parts = [];
    transcript.messages.forEach((m, i) => {
        if (transcript.omitted && transcript.omitted.atIndex === i)
            parts.push(`[... ${transcript.omitted.count} messages omitted ...]\n`);
        const lines = [`### ${m.role}${m.toolName ? ` (${m.toolName})` : ''}`, m.content === '' ? '(no text)' : m.content];
        if (m.toolCalls?.length) {
            lines.push('Tool calls:');
            for (const c of m.toolCalls)
                lines.push(`- ${c.name}${c.arguments ? ` args=${c.arguments}` : ''}`);
        }
        parts.push(lines.join('\n') + '\n');
    });
    if (transcript.omitted && transcript.omitted.atIndex >= transcript.messages.length)
        parts.push(`[... ${transcript.omitted.count} messages omitted ...]\n`);
    return parts.join('\n');
}
/** Existing skills as the reviewer sees them: redacted, description bounded, body excerpt cut to its head. */
function boundExistingSkills(existing, bounds = {}) {
    const maxExcerptBytes = bounds.maxExcerptBytes ?? 600;
    const maxDescriptionBytes = bounds.maxDescriptionBytes ?? 1000;
    return existing.map((skill) => ({
        ...skill,
        description: (0, bounding_1.boundText)((0, redaction_1.redactSecrets)(skill.description.trim()), maxDescriptionBytes),
        bodyExcerpt: (0, bounding_1.truncateHead)((0, redaction_1.redactSecrets)(skill.bodyExcerpt.trim()), maxExcerptBytes),
    }));
}
//# sourceMappingURL=transcript.js.map