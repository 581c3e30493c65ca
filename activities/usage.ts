import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@temporalio/client';
import {
  AuditEventSchema,
  SCOPE_RECORDS_SIGNAL,
  SCOPE_USAGE_WORKFLOW,
  scopeUsageWorkflowId,
  USAGE_BURST_INTERVAL_MS,
  type ScopeRecord,
  type SessionUsage,
  type UsageTotals,
} from '../core';
import { countRevisions, jobOutcomeDelta, SessionAuditEventSchema, transitionDelta, type GovernanceCounts } from '../core/governance';
import { coalescedSignalWithStart } from './coalesce-per-key';
import { withStoreErrors } from './errors';
import type { SkillStore } from '../storage';

/** Hands records (one activity's, of one scope) to the scope's usage workflow; resolves once the server has them. */
export type RecordScope = (scopeKey: string, records: ScopeRecord[]) => Promise<void>;

/**
 * Signal-with-start of the scope's usage workflow through `client` (coalescedSignalWithStart:
 * one signal per scope in flight from this process, what arrives meanwhile goes in the next
 * one), so 200 sessions of one scope finishing at once cost a few signals, not 200.
 * `storageOutageToleranceMs`: how long the workflow's writes wait out a storage outage.
 */
export function clientScopeRecorder(client: Client, taskQueue: string, storageOutageToleranceMs?: number): RecordScope {
  return coalescedSignalWithStart<ScopeRecord[]>(client, {
    taskQueue,
    workflowType: SCOPE_USAGE_WORKFLOW,
    signal: SCOPE_RECORDS_SIGNAL,
    workflowId: scopeUsageWorkflowId,
    args: (scopeKey) => [{ scopeKey, burstIntervalMs: USAGE_BURST_INTERVAL_MS, ...(storageOutageToleranceMs !== undefined ? { storageOutageToleranceMs } : {}) }],
  });
}

/**
 * What an activity's governance writes add to its scopes' derived objects (the governance
 * counters and the recent audit page), collected while it runs and sent when it ends: one
 * signal per scope and activity, so a job's usage, revision, audit entries and outcome reach
 * the usage workflow together and cost one write of the summary. The store's governance
 * writes note their record; they are all idempotent, and so is counting (by record id), so
 * a retried activity sends them again harmlessly.
 */
export function scopeRecording(recordScope: RecordScope) {
  const collected = new AsyncLocalStorage<Map<string, ScopeRecord[]>>();

  function note(scopeKey: string, record: ScopeRecord): void {
    const records = collected.getStore();
    if (!records) throw new Error('a governance write outside an activity: its counters would be lost');
    records.set(scopeKey, [...(records.get(scopeKey) ?? []), record]);
  }

  async function flush(records: Map<string, ScopeRecord[]>): Promise<void> {
    await Promise.all([...records].map(([scopeKey, list]) => recordScope(scopeKey, list)));
  }

  /** Runs `fn` collecting its records; sends them when it succeeds (a failed attempt's are sent by its retry). */
  function within<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      const records = new Map<string, ScopeRecord[]>();
      const result = await collected.run(records, () => fn(...args));
      if (records.size) await flush(records);
      return result;
    };
  }

  /**
   * Sends what the current activity's writes collected so far, now (what they collect later is
   * sent when the activity ends): a caller overlaps this signal with other work.
   */
  async function sendCollected(): Promise<void> {
    const records = collected.getStore();
    if (!records?.size) return;
    const now = new Map(records);
    records.clear();
    await flush(now);
  }

  /** `store` whose governance writes note their records. */
  function recordingStore(store: SkillStore): SkillStore {
    const counts = (scopeKey: string, id: string, at: string, delta: Partial<GovernanceCounts>) => {
      if (Object.keys(delta).length) note(scopeKey, { kind: 'counts', id, at, counts: delta });
    };
    return {
      ...store,
      async createRevision(input, options) {
        const stored = await store.createRevision(input, options);
        counts(stored.scopeKey, `revision:${stored.id}`, stored.createdAt, countRevisions([stored]));
        return stored;
      },
      async transitionRevision(ref, transition) {
        const after = await store.transitionRevision(ref, transition);
        const patched = (['human', 'gates', 'shadowBypassed'] as const).filter((k) => transition.patch?.[k] !== undefined);
        counts(ref.scopeKey, `transition:${ref.revisionId}:${transition.to}:${transition.at}`, transition.at, transitionDelta(after, transition, patched));
        return after;
      },
      async writeJobOutcome(outcome, at) {
        await store.writeJobOutcome(outcome, at);
        counts(outcome.scopeKey, `job:${outcome.jobId}`, at, jobOutcomeDelta(outcome));
      },
      async appendAudit(input) {
        const written = await store.appendAudit(input);
        const event = AuditEventSchema.parse(input);
        note(event.scopeKey, { kind: 'audit', event });
        return written;
      },
      async appendSessionAudit(input) {
        const written = await store.appendSessionAudit(input);
        const event = SessionAuditEventSchema.parse(input);
        note(event.scopeKey, { kind: 'quarantine', event });
        return written;
      },
    };
  }

  /** A session's usage, counted with the rest of the activity's records (the job's last write). */
  function noteSession(scopeKey: string, usage: SessionUsage, indexEtag?: string | null): void {
    note(scopeKey, { kind: 'session', usage, ...(indexEtag !== undefined ? { indexEtag } : {}) });
  }

  return { within, recordingStore, noteSession, sendCollected };
}

export type ScopeRecording = ReturnType<typeof scopeRecording>;

/** Activities of the scope usage workflow, the only writer of a scope's usage summary (usage and governance counters, recent audit page). */
export function usageActivities({ store }: { store: SkillStore }) {
  return {
    /** One burst of records: the index snapshots the sessions were offered (cached: no request) and one conditional write of the summary. */
    async applyScopeRecordsBurst({
      scopeKey,
      records,
      at,
    }: {
      scopeKey: string;
      records: ScopeRecord[];
      at: string;
    }): Promise<{ applied: number; generation: number; counted: UsageTotals }> {
      return withStoreErrors(() => store.applyScopeRecordsBurst(scopeKey, records, at));
    },
  };
}
