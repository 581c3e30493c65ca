import { z } from 'zod';
import { applyUsage, emptyUsage, type OfferedSkill, type SessionUsage, type UsageSummary, type UsageTotals } from '../core/usage';
import type { Same } from '../core/same-type';
import { retryOnConflict } from './cas-retry';
import { PreconditionConflictError } from './errors';
import { usageSummaryKey } from './keys';
import type { ObjectStore } from './object-store';
import type { ScopeIndexStore } from './scope-index-store';

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

export function usageStore(objects: ObjectStore, index: Pick<ScopeIndexStore, 'readScopeIndexIncluding'>) {
  // The single writer's last copy per scope: a burst writes If-Match without re-reading it.
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
   * Adds a burst of sessions to the scope's counters: the index (one conditional GET, a 304
   * while nothing was published) for what they were offered, then one conditional write.
   * Requests per burst do not depend on how many sessions were counted before.
   */
  async function applyUsageBurst(scopeKey: string, sessions: readonly SessionUsage[], at: string): Promise<{ applied: number; generation: number; counted: UsageTotals }> {
    const offered = offeredSkills((await index.readScopeIndexIncluding(scopeKey, [], { timeoutMs: 0 }))?.index);
    const key = usageSummaryKey(scopeKey);
    let base = cache.get(scopeKey);
    return retryOnConflict(async () => {
      if (base === undefined) base = (await readUsage(scopeKey)) ?? null;
      const { summary, applied, counted } = applyUsage(base?.summary ?? emptyUsage(scopeKey), sessions, offered, at, scopeKey);
      if (applied === 0) return { applied, generation: summary.generation, counted };
      try {
        const { etag } = base ? await objects.putIfMatch(key, summary, base.etag) : await objects.putCreateOnly(key, summary);
        remember(scopeKey, { summary, etag });
        return { applied, generation: summary.generation, counted };
      } catch (error) {
        if (error instanceof PreconditionConflictError) base = undefined;
        throw error;
      }
    });
  }

  return { readUsage, applyUsageBurst };
}
