import { redactSessionEvents, SessionEventsSchema, type PayloadRef } from '../core';
import type { SkillStore } from '../storage';
import { parseInput } from '../core/errors';

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
  const parsed = parseInput(SessionEventsSchema, events, 'session events');
  const payloadRef = await store.putPayload(JSON.stringify(redactSessionEvents(parsed)));
  return { payloadRef, eventCount: parsed.length };
}
