import type { AuditEvent } from '../schemas/revision';
import { addCounts, emptyCounts, type GovernanceCounts } from '../governance/counters';
import type { SessionAuditEvent } from '../governance/session-audit';
import type { SessionUsage } from './attribution';
import { applyUsage, copyForUpdate, jobKey, MAX_RECENT_JOBS, type OfferedSkill, type UsageSummary, type UsageTotals } from './summary';

/**
 * What the scope's usage workflow (the one writer of the scope's derived counters) is sent,
 * besides sessions: each governance write's part of the counters, and the audit entries it
 * keeps a bounded recent page of. Every record has an id, so a retried activity that sends
 * it again changes nothing.
 */
export type ScopeRecord =
  | {
      kind: 'session';
      usage: SessionUsage;
      /** The scope index the session's review read (its ETag; null: none): what it was offered. Absent: the index when counted. */
      indexEtag?: string | null;
    }
  | { kind: 'counts'; id: string; at: string; counts: Partial<GovernanceCounts> }
  | { kind: 'audit'; event: AuditEvent }
  | { kind: 'quarantine'; event: SessionAuditEvent };

/** A job's session usage as it travels to the job's last write, which counts it with the job's other records. */
export interface JobUsage {
  session: SessionUsage;
  /** ETag of the scope index the job's review read (null: none); absent when the job did not review. */
  indexEtag?: string | null;
}

/** The Activity page shows at most this many of a scope's recent audit entries (older ones: `evolution audit`, the skill's page). */
export const MAX_RECENT_EVENTS = 100;
export const MAX_RECENT_QUARANTINES = 50;

function recordKey(r: Exclude<ScopeRecord, { kind: 'session' }>): string {
  return jobKey(r.kind === 'counts' ? `counts:${r.id}` : `${r.kind}:${r.event.id}`);
}

/**
 * Adds a burst of records to the scope's summary (a new object). Sessions are grouped by the
 * index they were offered (`offeredFor`); counts add up; audit entries join the recent page,
 * newest first. Records already in `recentJobs` are skipped, so re-applying changes nothing.
 * `applied`: sessions and records counted now.
 */
export function applyScopeRecords(
  before: UsageSummary,
  records: readonly ScopeRecord[],
  offeredFor: (indexEtag: string | null | undefined) => readonly OfferedSkill[],
  at: string,
  scopeKey: string = before.scopeKey,
): { summary: UsageSummary; applied: number; counted: UsageTotals } {
  let summary = before;
  let applied = 0;
  const counted: UsageTotals = { byOutcome: {}, loads: 0, sessionsLoading: 0 };
  const sessions = new Map<string | null | undefined, SessionUsage[]>();
  for (const r of records) if (r.kind === 'session') sessions.set(r.indexEtag, [...(sessions.get(r.indexEtag) ?? []), r.usage]);
  for (const [etag, group] of sessions) {
    const out = applyUsage(summary, group, offeredFor(etag), at, scopeKey);
    summary = out.summary;
    applied += out.applied;
    for (const [k, v] of Object.entries(out.counted.byOutcome))
      counted.byOutcome[k as keyof UsageTotals['byOutcome']] = (counted.byOutcome[k as keyof UsageTotals['byOutcome']] ?? 0) + v;
    counted.loads += out.counted.loads;
    counted.sessionsLoading += out.counted.sessionsLoading;
  }
  const others = records.filter((r): r is Exclude<ScopeRecord, { kind: 'session' }> => r.kind !== 'session');
  if (others.length === 0) return { summary, applied, counted };
  if (summary === before) summary = copyForUpdate(before);
  const recent = new Set(summary.recentJobs);
  let recorded = 0;
  for (const r of others) {
    const key = recordKey(r);
    if (recent.has(key)) continue;
    recent.add(key);
    summary.recentJobs.push(key);
    recorded++;
    if (r.kind === 'counts') summary.governance = { since: summary.governance?.since ?? r.at, counts: addCounts(summary.governance?.counts ?? emptyCounts(), r.counts) };
    else if (r.kind === 'audit') summary.recentEvents = newestFirst([r.event, ...(summary.recentEvents ?? [])]).slice(0, MAX_RECENT_EVENTS);
    else summary.recentQuarantines = newestFirst([r.event, ...(summary.recentQuarantines ?? [])]).slice(0, MAX_RECENT_QUARANTINES);
  }
  if (recorded === 0) return { summary: applied ? summary : before, applied, counted };
  if (summary.recentJobs.length > MAX_RECENT_JOBS) summary.recentJobs.splice(0, summary.recentJobs.length - MAX_RECENT_JOBS);
  if (applied === 0) summary.generation++;
  summary.updatedAt = at;
  return { summary, applied: applied + recorded, counted };
}

function newestFirst<T extends { at: string; id: string }>(events: T[]): T[] {
  return events.sort((a, b) => b.at.localeCompare(a.at) || b.id.localeCompare(a.id));
}
