import { redactJsonStrings, redactSecrets } from '../skills/redaction';
import type { Outcome, SessionEvent } from '../schemas/session';

/**
 * The session events as they may be stored or shown to a model: every string a client
 * can send (text, every field of a content part, message and tool names, tool-call ids
 * and arguments) passed through credential redaction (invariant 8 covers storage, not
 * only the LLM). Redaction is deterministic, so a call id and the tool result that
 * refers to it stay equal.
 */
export function redactSessionEvents(events: readonly SessionEvent[]): SessionEvent[] {
  return events.map((event) => ({
    ...event,
    content:
      typeof event.content === 'string'
        ? redactSecrets(event.content)
        : Array.isArray(event.content)
          ? event.content.map((part) => redactJsonStrings(part) as typeof part) // depth bounded by the schema
          : event.content,
    ...(event.name !== undefined ? { name: redactSecrets(event.name) } : {}),
    ...(event.tool_call_id !== undefined ? { tool_call_id: redactSecrets(event.tool_call_id) } : {}),
    ...(event.tool_calls
      ? {
          tool_calls: event.tool_calls.map((call) => ({
            ...call,
            ...(call.id !== undefined ? { id: redactSecrets(call.id) } : {}),
            function: { ...call.function, name: redactSecrets(call.function.name), arguments: redactSecrets(call.function.arguments) },
          })),
        }
      : {}),
  }));
}

/** The caller's verdict with its free-text fields redacted (it travels in workflow history and the reviewer prompt). */
export function redactOutcome<T extends Outcome | undefined>(outcome: T): T {
  if (outcome === undefined) return outcome;
  return {
    ...outcome,
    ...(outcome.notes !== undefined ? { notes: redactSecrets(outcome.notes) } : {}),
    ...(outcome.evaluator !== undefined ? { evaluator: redactSecrets(outcome.evaluator) } : {}),
  };
}
