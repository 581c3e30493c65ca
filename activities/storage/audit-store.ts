import type { z } from 'zod';
import { AuditEventSchema, type AuditEvent } from '../../core';
import { PreconditionConflictError } from './errors';
import { parseInput } from './input';
import { auditKey, auditPrefix } from './keys';
import { mapLimit } from './map-limit';
import type { ObjectStore } from './object-store';

/**
 * Append-only audit log, one object per event, keyed by time then event id. Writing is
 * create-only and the key is a function of the event (its `at` must come from the
 * workflow, not the clock), so a retried append finds its own object and succeeds.
 */
export function auditStore(objects: ObjectStore) {
  async function appendAudit(input: z.input<typeof AuditEventSchema>): Promise<{ key: string; written: boolean }> {
    const event = parseInput(AuditEventSchema, input, `audit event ${String((input as { id?: unknown })?.id)}`);
    const key = auditKey(event.scopeKey, event.skillId, event.at, event.id);
    try {
      await objects.putCreateOnly(key, event);
      return { key, written: true };
    } catch (error) {
      if (error instanceof PreconditionConflictError) return { key, written: false };
      throw error;
    }
  }

  /** In time order (then event id). */
  async function listAudit(scopeKey: string, skillId: string): Promise<AuditEvent[]> {
    const keys = await objects.list(auditPrefix(scopeKey, skillId));
    const events = await mapLimit(keys, 8, async (key) => (await objects.getJson(key, AuditEventSchema))?.value);
    return events.filter((e): e is AuditEvent => e !== undefined);
  }

  return { appendAudit, listAudit };
}

export type AuditStore = ReturnType<typeof auditStore>;
