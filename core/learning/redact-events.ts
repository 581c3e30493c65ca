import { REDACTED, redactSecrets } from '../skills/redaction';
import { MAX_CONTENT_PART_DEPTH, type Outcome, type SessionEvent } from '../schemas/session';

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
          ? event.content.map((part) => redactJson(part, 1) as typeof part)
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

/** Every string in a JSON value redacted; keys too. Deeper than the schema allows cannot come in, but is cut anyway. */
function redactJson(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_CONTENT_PART_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactJson(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactSecrets(k), redactJson(v, depth + 1)]));
}
