"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.redactSessionEvents = redactSessionEvents;
const redaction_1 = require("../skills/redaction");
/**
 * The session events as they may be stored: every text content, tool-call argument and
 * name passed through credential redaction (invariant 8 covers storage, not only the LLM).
 */
function redactSessionEvents(events) {
    return events.map((event) => ({
        ...event,
        content: typeof event.content === 'string'
            ? (0, redaction_1.redactSecrets)(event.content)
            : Array.isArray(event.content)
                ? event.content.map((part) => (typeof part.text === 'string' ? { ...part, text: (0, redaction_1.redactSecrets)(part.text) } : part))
                : event.content,
        ...(event.tool_calls
            ? { tool_calls: event.tool_calls.map((call) => ({ ...call, function: { ...call.function, arguments: (0, redaction_1.redactSecrets)(call.function.arguments) } })) }
            : {}),
    }));
}
//# sourceMappingURL=redact-events.js.map