import { redactSecrets } from '../skills/redaction';
import type { SessionEvent } from '../schemas/session';

/**
 * The session events as they may be stored: every text content, tool-call argument and
 * name passed through credential redaction (invariant 8 covers storage, not only the LLM).
 */
export function redactSessionEvents(events: readonly SessionEvent[]): SessionEvent[] {
  return events.map((event) => ({
    ...event,
    content:
      typeof event.content === 'string'
        ? redactSecrets(event.content)
        : Array.isArray(event.content)
          ? event.content.map((part) => (typeof part.text === 'string' ? { ...part, text: redactSecrets(part.text) } : part))
          : event.content,
    ...(event.tool_calls
      ? { tool_calls: event.tool_calls.map((call) => ({ ...call, function: { ...call.function, arguments: redactSecrets(call.function.arguments) } })) }
      : {}),
  }));
}
