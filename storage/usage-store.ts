import { z } from 'zod';
import { applyScopeRecords, emptyUsage, type OfferedSkill, type ScopeRecord, type SessionUsage, type UsageSummary, type UsageTotals } from '../core/usage';
import { AuditEventSchema } from '../core/schemas/revision';
import { GOVERNANCE_COUNTER_NAMES, type GovernanceCounts } from '../core/governance/counters';
import { SessionAuditEventSchema } from '../core/governance/session-audit';
import type { Same } from '../core/same-type';
import { retryOnConflict } from './cas-retry';
import { PreconditionConflictError } from './errors';
import { usageSummaryKey } from './keys';
import { compactJson, type ObjectStore } from './object-store';
import type { ScopeIndex, ScopeIndexStore } from './scope-index-store';

const count = z.number().nonnegative();
const TallySchema = z.object({
  n: count,
  success: count,
  partial: count,
  fail: count,
  agent_error: count,
  unknown: count,
  scoreSum: count,
  scored: count,
  tokenSum: count,
  tokened: count,
});
const RevisionUsageSchema = z.object({
  revisionId: z.string(),
  offered: count,
  loaded: count,
  firstSeenAt: z.string(),
  lastLoadedAt: z.string().optional(),
  with: TallySchema,
  without: TallySchema,
});
export const UsageSummarySchema = z.object({
  scopeKey: z.string(),
  generation: z.number().int().nonnegative(),
  sessions: count,
  outcomes: TallySchema,
  skills: z.array(
    z.object({
      skillId: z.string(),
      name: z.string(),
      scopeKey: z.string(),
      firstOfferedAt: z.string().optional(),
      lastLoadedAt: z.string().optional(),
      revisions: z.array(RevisionUsageSchema),
      canary: z.object({ candidateRevisionId: z.string(), stableRevisionId: z.string(), since: z.string(), candidate: TallySchema, stable: TallySchema }).optional(),
    }),
  ),
  recentJobs: z.array(z.string()),
  updatedAt: z.string().optional(),
  governance: z
    .object({
      since: z.string(),
      counts: z.object(Object.fromEntries(GOVERNANCE_COUNTER_NAMES.map((n) => [n, z.number().int()])) as Record<keyof GovernanceCounts, z.ZodNumber>),
    })
    .optional(),
  recentEvents: z.array(AuditEventSchema).optional(),
  recentQuarantines: z.array(SessionAuditEventSchema).optional(),
});

// The stored object and core's summary are one shape: if either changes, this fails to compile.
const _summaryMatchesCore: Same<z.infer<typeof UsageSummarySchema>, UsageSummary> = true;
void _summaryMatchesCore;

const CACHED_SCOPES = 256;

/** The live skills of a scope index: what its sessions were offered. */
export function offeredSkills(
  index: { skills: readonly { skillId: string; name: string; revisionId: string; canary?: { revisionId: string; fraction: number } }[] } | undefined,
): OfferedSkill[] {
  return (index?.skills ?? []).map((s) => ({
    skillId: s.skillId,
    name: s.name,
    revisionId: s.revisionId,
    ...(s.canary ? { canary: { revisionId: s.canary.revisionId, fraction: s.canary.fraction } } : {}),
  }));
}

export function usageStore(objects: ObjectStore, index: Pick<ScopeIndexStore, 'readScopeIndexIncluding' | 'scopeIndexSnapshot'>) {
  // The single writer's last copy per scope (null: absent when last seen): a burst writes
  // If-Match without re-reading it. A scope this process has not seen is assumed new (a
  // create-only write, no GET first): a scope with counters costs one refused write once.
  const cache = new Map<string, { summary: UsageSummary; etag: string } | null>();
  function remember(scopeKey: string, value: { summary: UsageSummary; etag: string } | null) {
    cache.delete(scopeKey);
    cache.set(scopeKey, value);
    if (cache.size > CACHED_SCOPES) cache.delete(cache.keys().next().value!);
  }

  async function readUsage(scopeKey: string): Promise<{ summary: UsageSummary; etag: string } | undefined> {
    const got = await objects.getJson(usageSummaryKey(scopeKey), UsageSummarySchema);
    return got ? { summary: got.value, etag: got.etag } : undefined;
  }

  /**
   * What the burst's sessions were offered: the index snapshot each session's review read
   * (this process has it when it ran the review: no request; none when the review found no
   * index, as the session, which ran before it, did), else the index now (one conditional
   * GET, a 304 while nothing was published).
   */
  async function offeredBySnapshot(scopeKey: string, records: readonly ScopeRecord[]): Promise<(etag: string | null | undefined) => OfferedSkill[]> {
    const snapshots = new Map<string | null | undefined, OfferedSkill[]>();
    for (const r of records) {
      if (r.kind !== 'session' || snapshots.has(r.indexEtag)) continue;
      const snapshot: ScopeIndex | undefined =
        r.indexEtag === null
          ? undefined
          : r.indexEtag === undefined
            ? (await index.readScopeIndexIncluding(scopeKey, [], { timeoutMs: 0 }))?.index
            : await index.scopeIndexSnapshot(scopeKey, r.indexEtag);
      snapshots.set(r.indexEtag, offeredSkills(snapshot));
    }
    return (etag) => snapshots.get(etag) ?? [];
  }

  /**
   * Adds a burst of records (sessions, governance counts, audit entries) to the scope's
   * summary in one conditional write. Requests per burst do not depend on how much was
   * counted before.
   */
  async function applyScopeRecordsBurst(scopeKey: string, records: readonly ScopeRecord[], at: string): Promise<{ applied: number; generation: number; counted: UsageTotals }> {
    const offered = await offeredBySnapshot(scopeKey, records);
    const key = usageSummaryKey(scopeKey);
    let base = cache.get(scopeKey);
    let assumeNew = base === undefined;
    return retryOnConflict(async () => {
      if (base === undefined && !assumeNew) base = (await readUsage(scopeKey)) ?? null;
      const current = base ?? null;
      const { summary, applied, counted } = applyScopeRecords(current?.summary ?? emptyUsage(scopeKey), records, offered, at, scopeKey);
      if (applied === 0) return { applied, generation: summary.generation, counted };
      try {
        const body = compactJson(summary);
        const { etag } = current ? await objects.putIfMatch(key, body, current.etag) : await objects.putCreateOnly(key, body);
        remember(scopeKey, { summary, etag });
        return { applied, generation: summary.generation, counted };
      } catch (error) {
        if (error instanceof PreconditionConflictError) {
          base = undefined;
          assumeNew = false;
        }
        throw error;
      }
    });
  }

  /** Sessions only (the usage workflow's first signal): see applyScopeRecordsBurst. */
  async function applyUsageBurst(scopeKey: string, sessions: readonly SessionUsage[], at: string): Promise<{ applied: number; generation: number; counted: UsageTotals }> {
    return applyScopeRecordsBurst(
      scopeKey,
      sessions.map((usage) => ({ kind: 'session', usage })),
      at,
    );
  }

  return { readUsage, applyUsageBurst, applyScopeRecordsBurst };
}
