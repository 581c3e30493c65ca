import type { z } from 'zod';
import { AuditEventSchema, type AuditEvent } from '../core';
import { SessionAuditEventSchema, type SessionAuditEvent } from '../core/governance';
import { PreconditionConflictError } from './errors';
import { parseInput } from './input';
import { auditKey, auditPrefix, sessionAuditKey, sessionAuditPrefix } from './keys';
import { mapLimit } from '../core/concurrency';
import type { ObjectStore } from './object-store';

/**
 * Append-only audit log, one object per event, keyed by time then event id. Writing is
 * create-only and the key is a function of the event (its `at` must come from the
 * workflow, not the clock), so a retried append finds its own object and succeeds.
 */
export function auditStore(objects: ObjectStore) {
  async function append(key: string, event: object): Promise<{ key: string; written: boolean }> {
    try {
      await objects.putCreateOnly(key, event);
      return { key, written: true };
    } catch (error) {
      if (error instanceof PreconditionConflictError) return { key, written: false };
      throw error;
    }
  }

  async function appendAudit(input: z.input<typeof AuditEventSchema>): Promise<{ key: string; written: boolean }> {
    const event = parseInput(AuditEventSchema, input, `audit event ${String((input as { id?: unknown })?.id)}`);
    return append(auditKey(event.scopeKey, event.skillId, event.at, event.id), event);
  }

  /** A session-level entry (a quarantined delta); same create-only rule as skill events. */
  async function appendSessionAudit(input: z.input<typeof SessionAuditEventSchema>): Promise<{ key: string; written: boolean }> {
    const event = parseInput(SessionAuditEventSchema, input, `session audit event ${String((input as { id?: unknown })?.id)}`);
    return append(sessionAuditKey(event.scopeKey, event.at, event.id), event);
  }

  /** The scope's session-level entries, oldest first (they are rare: one per quarantined delta). */
  async function listSessionAudit(scopeKey: string): Promise<SessionAuditEvent[]> {
    const keys = await objects.list(sessionAuditPrefix(scopeKey));
    const events = await mapLimit(keys, 8, async (key) => (await objects.getJson(key, SessionAuditEventSchema))?.value);
    return events.filter((e): e is SessionAuditEvent => e !== undefined);
  }

  /** One event by its time and id (a retried operation reads the log entry its first attempt wrote). */
  async function readAudit(scopeKey: string, skillId: string, at: string, id: string): Promise<AuditEvent | undefined> {
    return (await objects.getJson(auditKey(scopeKey, skillId, at, id), AuditEventSchema))?.value;
  }

  /** In time order; events of one time in lifecycle order (recorded, held/rejected, decided, archived, shadow note), then by id. */
  async function listAudit(scopeKey: string, skillId: string): Promise<AuditEvent[]> {
    const keys = await objects.list(auditPrefix(scopeKey, skillId));
    const events = await mapLimit(keys, 8, async (key) => (await objects.getJson(key, AuditEventSchema))?.value);
    const rank = (a: AuditEvent['action']) => (a === 'write_revision' ? 0 : a === 'hold' || a === 'reject' ? 1 : a === 'shadow_bypass' ? 3 : 2);
    return events
      .filter((e): e is AuditEvent => e !== undefined)
      .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || rank(a.action) - rank(b.action) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  return { appendAudit, readAudit, listAudit, appendSessionAudit, listSessionAudit };
}

export type AuditStore = ReturnType<typeof auditStore>;
