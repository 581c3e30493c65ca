import { INPUT_LIMITS, redactSessionEvents, SessionEventsSchema, type PayloadRef } from '../core';
import type { SkillStore } from '../storage';
import { InputError, parseInput } from '../core/errors';

export interface StoredEvents {
  payloadRef: PayloadRef;
  eventCount: number;
}

/**
 * What a platform must do before it submits a segment that references stored events:
 * validate them as session events, redact credentials, and store the exact bytes at
 * `payloads/{sha256 of those bytes}` (create-only, so storing the same events twice is
 * harmless). Returns the reference to put in the segment (`evolution payload put FILE`).
 */
export async function storeSessionEvents(store: SkillStore, events: unknown): Promise<StoredEvents> {
  // The schema's bounds run first: a message beyond them is refused before redaction reads it.
  const parsed = parseInput(SessionEventsSchema, events, 'session events');
  const bytes = new TextEncoder().encode(JSON.stringify(redactSessionEvents(parsed)));
  if (bytes.byteLength > INPUT_LIMITS.maxPayloadBytes)
    throw new InputError(`session events: ${bytes.byteLength} bytes as stored, more than ${INPUT_LIMITS.maxPayloadBytes} (input bounds: docs/platform-contract.md)`);
  const payloadRef = await store.putPayload(bytes);
  return { payloadRef, eventCount: parsed.length };
}
