"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.redactSessionEvents = redactSessionEvents;
exports.redactOutcome = redactOutcome;
const redaction_1 = require("../skills/redaction");
/**
 * The session events as they may be stored or shown to a model: every string a client
 * can send (text, every field of a content part, message and tool names, tool-call ids
 * and arguments) passed through credential redaction (invariant 8 covers storage, not
 * only the LLM). Redaction is deterministic, so a call id and the tool result that
 * refers to it stay equal.
 */
function redactSessionEvents(events) {
    return events.map((event) => ({
        ...event,
        content: typeof event.content === 'string'
            ? (0, redaction_1.redactSecrets)(event.content)
            : Array.isArray(event.content)
                ? event.content.map((part) => (0, redaction_1.redactJsonStrings)(part)) // depth bounded by the schema
                : event.content,
        ...(event.name !== undefined ? { name: (0, redaction_1.redactSecrets)(event.name) } : {}),
        ...(event.tool_call_id !== undefined ? { tool_call_id: (0, redaction_1.redactSecrets)(event.tool_call_id) } : {}),
        ...(event.tool_calls
            ? {
                tool_calls: event.tool_calls.map((call) => ({
                    ...call,
                    ...(call.id !== undefined ? { id: (0, redaction_1.redactSecrets)(call.id) } : {}),
                    function: { ...call.function, name: (0, redaction_1.redactSecrets)(call.function.name), arguments: (0, redaction_1.redactSecrets)(call.function.arguments) },
                })),
            }
            : {}),
    }));
}
/** The caller's verdict with its free-text fields redacted (it travels in workflow history and the reviewer prompt). */
function redactOutcome(outcome) {
    if (outcome === undefined)
        return outcome;
    return {
        ...outcome,
        ...(outcome.notes !== undefined ? { notes: (0, redaction_1.redactSecrets)(outcome.notes) } : {}),
        ...(outcome.evaluator !== undefined ? { evaluator: (0, redaction_1.redactSecrets)(outcome.evaluator) } : {}),
    };
}
//# sourceMappingURL=redact-events.js.map