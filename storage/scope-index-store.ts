import { z } from 'zod';
import {
  applyIndexChanges,
  indexIncludes,
  isLivePointer,
  reconcileIndex,
  type ActivePointer,
  type IndexChange,
  type IndexContent,
  type IndexedPublication,
  type IndexEntry,
} from '../core';
import { retryOnConflict } from './cas-retry';
import { PreconditionConflictError } from './errors';
import { scopeIndexKey } from './keys';
import { mapLimit } from '../core/concurrency';
import { compactJson, parseJson, type ObjectStore } from './object-store';
import type { PointerStore } from './pointer-store';
import type { Same } from '../core/same-type';

export const ScopeIndexEntrySchema = z.object({
  skillId: z.string(),
  name: z.string(),
  description: z.string(),
  revisionId: z.string(),
  managed: z.boolean().default(true),
  /** Seq of the pointer this entry was derived from (highest wins). */
  seq: z.number().int().nonnegative().default(0),
  /** A live canary of this skill (absent in indexes written before staged rollouts). */
  canary: z.object({ revisionId: z.string(), fraction: z.number().min(0).max(1), name: z.string(), description: z.string() }).optional(),
});
export type ScopeIndexEntry = z.infer<typeof ScopeIndexEntrySchema>;

/**
 * Every live skill of a scope, for agents (progressive disclosure: index first, body on
 * demand) and for the reconciler (names of the whole scope). Derived from the active
 * pointers and written only by the scope's index workflow (one writer per scope, one
 * write per burst of publications), so between publications an agent's conditional GET
 * is a 304.
 */
export const ScopeIndexSchema = z.object({
  scopeKey: z.string(),
  /** +1 on every write. */
  generation: z.number().int().nonnegative(),
  skills: z.array(ScopeIndexEntrySchema),
  removed: z.array(z.object({ skillId: z.string(), seq: z.number().int().nonnegative() })).default([]),
  /**
   * Version of the scope's rejections (storage/rejection-store.ts; 0: none), so a review reads
   * them only when there are some it has not seen. Absent in indexes written before it: read them.
   */
  rejections: z.number().int().nonnegative().optional(),
});
export type ScopeIndex = z.infer<typeof ScopeIndexSchema>;

// The stored index and core's index as data (what applyIndexChanges works on) are one shape:
// if either changes, these lines fail to compile.
const _entryMatchesCore: Same<ScopeIndexEntry, IndexEntry> = true;
const _contentMatchesCore: Same<Pick<ScopeIndex, 'skills' | 'removed'>, IndexContent> = true;
void _entryMatchesCore;
void _contentMatchesCore;

export type ScopeIndexRead = { notModified: true } | { notModified?: false; index: ScopeIndex; etag: string };

/** The index change a pointer stands for. */
export function indexChangeFor(pointer: ActivePointer): IndexChange {
  if (!isLivePointer(pointer)) return { skillId: pointer.skillId, seq: pointer.seq, revisionId: pointer.revisionId };
  return {
    skillId: pointer.skillId,
    seq: pointer.seq,
    revisionId: pointer.revisionId,
    entry: {
      name: pointer.spec.name,
      description: pointer.spec.description,
      managed: pointer.managed,
      ...(pointer.canary
        ? { canary: { revisionId: pointer.canary.revisionId, fraction: pointer.canary.fraction, name: pointer.canary.spec.name, description: pointer.canary.spec.description } }
        : {}),
    },
  };
}

const CACHED_SCOPES = 256;
const CACHED_SNAPSHOTS = 16;

export function scopeIndexStore(
  objects: ObjectStore,
  pointers: PointerStore,
  listSkillIds: (scopeKey: string) => Promise<string[]>,
  rejectionsVersion: (scopeKey: string) => Promise<number>,
) {
  // Last index seen per scope, by ETag (null: the GET found none): the single writer writes
  // If-Match (or create-only) without re-reading, and a job re-reads the snapshot its review
  // was prepared from without a request. A stale entry only costs a failed condition.
  const cache = new Map<string, { index: ScopeIndex; etag: string } | null>();
  // The last few snapshots by scope and ETag: a job's review, and the usage burst that counts
  // what its session was offered, find the snapshot the job read even after its own
  // publication replaced it in `cache` (no request).
  const snapshots = new Map<string, ScopeIndex>();
  // When this process last knew its copy in `cache` to be the stored index (its GET's answer, a 304 for it, or its own write).
  const confirmedAt = new Map<string, number>();
  function remember(scopeKey: string, value: { index: ScopeIndex; etag: string } | null) {
    cache.delete(scopeKey);
    cache.set(scopeKey, value);
    confirmedAt.set(scopeKey, Date.now());
    if (cache.size > CACHED_SCOPES) {
      const oldest = cache.keys().next().value!;
      cache.delete(oldest);
      confirmedAt.delete(oldest);
    }
    if (!value) return;
    snapshots.delete(`${scopeKey}\n${value.etag}`);
    snapshots.set(`${scopeKey}\n${value.etag}`, value.index);
    if (snapshots.size > CACHED_SNAPSHOTS) snapshots.delete(snapshots.keys().next().value!);
  }

  /** One conditional GET; undefined when the scope has never been indexed (no skills). */
  async function readScopeIndex(scopeKey: string, ifNoneMatch?: string): Promise<ScopeIndexRead | undefined> {
    const key = scopeIndexKey(scopeKey);
    const got = await objects.getText(key, ifNoneMatch);
    if (!got) remember(scopeKey, null);
    if (got?.notModified && ifNoneMatch === cache.get(scopeKey)?.etag) confirmedAt.set(scopeKey, Date.now());
    if (!got || got.notModified) return got;
    const read = { index: parseJson(key, got.value, ScopeIndexSchema), etag: got.etag };
    remember(scopeKey, read);
    return read;
  }

  /**
   * The index once it includes every publication in `publications` (read-your-writes) and
   * names at least version `rejections` of the scope's rejections, polling by conditional GET
   * every `pollMs` for at most `timeoutMs`; after that, the last index read (the index still
   * follows: the caller goes on without the wait). With nothing to wait for, one GET
   * (conditional when this process has a copy). Undefined when the scope has no index.
   *
   * `reuseWithinMs`: the copy this process confirmed (read, or wrote) less than that long ago
   * is used without a request when it includes what is waited for. A busy scope's jobs then
   * share one read instead of each making one; what they may miss is only what was indexed
   * in that window.
   */
  async function readScopeIndexIncluding(
    scopeKey: string,
    publications: readonly IndexedPublication[],
    { timeoutMs, pollMs = 100, rejections = 0, reuseWithinMs = 0 }: { timeoutMs: number; pollMs?: number; rejections?: number; reuseWithinMs?: number },
  ): Promise<{ index: ScopeIndex; etag: string } | undefined> {
    const deadline = Date.now() + timeoutMs;
    const includes = (found: { index: ScopeIndex } | undefined) =>
      found
        ? publications.every((p) => indexIncludes(found.index, p.skillId, p.seq)) && (found.index.rejections ?? 0) >= rejections
        : publications.length === 0 && rejections === 0;
    // From the copy this process last saw: while the index is unchanged, the GET is a 304 and
    // the copy (and what was derived from it) is used again, instead of parsing it anew.
    const cached = cache.get(scopeKey);
    let seen: { index: ScopeIndex; etag: string } | undefined = cached ?? undefined;
    if (cached !== undefined && Date.now() - (confirmedAt.get(scopeKey) ?? -Infinity) < reuseWithinMs && includes(seen)) return seen;
    for (;;) {
      const read = await readScopeIndex(scopeKey, seen?.etag);
      if (!read) seen = undefined;
      else if (!read.notModified) seen = read;
      if (includes(seen) || Date.now() >= deadline) return seen;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  /**
   * The index with this ETag if this process has it (its current copy or one of its last
   * CACHED_SNAPSHOTS; `null`: the snapshot in which the scope had no index, which this process
   * last saw absent), else the current one (one GET).
   */
  async function scopeIndexSnapshot(scopeKey: string, etag?: string | null): Promise<ScopeIndex | undefined> {
    const cached = cache.get(scopeKey);
    if (etag === null && cached === null) return undefined;
    if (etag && cached?.etag === etag) return cached.index;
    const snapshot = etag ? snapshots.get(`${scopeKey}\n${etag}`) : undefined;
    if (snapshot) return snapshot;
    const read = await readScopeIndex(scopeKey);
    return read && !read.notModified ? read.index : undefined;
  }

  /**
   * Read-modify-write of the index by If-Match, starting from the cached copy (no GET when it
   * is current). `rejections`: a version of the scope's rejections to record (the highest
   * wins). A new index starts from that version: a rejection creates its scope's index
   * (recordRejection), so a scope without one has none to read. An index written before it
   * named them takes the stored rejections' version first (one GET, once per scope).
   */
  async function updateIndex(
    scopeKey: string,
    change: (content: IndexContent) => IndexContent & { changed: boolean; applied: IndexChange[] },
    rejections?: number,
  ): Promise<IndexChange[]> {
    const key = scopeIndexKey(scopeKey);
    // undefined: unknown, read it; null: absent when last seen, so try the create-only write.
    let base = cache.get(scopeKey);
    return retryOnConflict(async () => {
      if (base === undefined) {
        const read = await readScopeIndex(scopeKey);
        base = read && !read.notModified ? read : null;
      }
      const next = change(base?.index ?? { skills: [], removed: [] });
      const known = base?.index.rejections;
      const nextRejections = Math.max(known ?? (base === null ? 0 : await rejectionsVersion(scopeKey)), rejections ?? 0);
      if (!next.changed && nextRejections === known) return next.applied;
      const index: ScopeIndex = { scopeKey, generation: (base?.index.generation ?? 0) + 1, skills: next.skills, removed: next.removed, rejections: nextRejections };
      try {
        const body = compactJson(index);
        const { etag } = base ? await objects.putIfMatch(key, body, base.etag) : await objects.putCreateOnly(key, body);
        remember(scopeKey, { index, etag });
        return next.applied;
      } catch (error) {
        if (error instanceof PreconditionConflictError) {
          base = undefined;
          // Another writer changed it: the copy is no longer known to be the stored one.
          confirmedAt.delete(scopeKey);
        }
        throw error;
      }
    });
  }

  /**
   * Applies a burst of pointer changes (and the latest rejections version announced) in one
   * conditional write; returns the changes that were newer than the index.
   */
  async function applyScopeIndexChanges(scopeKey: string, changes: readonly IndexChange[], rejections?: number): Promise<IndexChange[]> {
    return updateIndex(scopeKey, (content) => applyIndexChanges(content, changes), rejections);
  }

  /**
   * Full reconcile from the pointers (repairs drift and lost changes): lists the scope's
   * skills, reads every pointer (`progress` is called as they are read, for heartbeats),
   * and writes the index if anything differs. Returns the changes that were applied.
   */
  async function reconcileScopeIndex(
    scopeKey: string,
    pending: readonly IndexChange[] = [],
    progress: (done: number, total: number) => void = () => {},
    rejections?: number,
  ): Promise<IndexChange[]> {
    const skillIds = await listSkillIds(scopeKey);
    let done = 0;
    const reads = await mapLimit(skillIds, 8, async (id) => {
      const read = await pointers.readActive(scopeKey, id);
      progress(++done, skillIds.length);
      return read;
    });
    const fromPointers = [...reads.flatMap((r) => (r ? [indexChangeFor(r.pointer)] : [])), ...pending];
    // The stored rejections' version too: a lost `rejectionsRecorded` signal is repaired like a lost pointer change.
    const stored = await rejectionsVersion(scopeKey);
    return updateIndex(scopeKey, (content) => reconcileIndex(content, fromPointers), Math.max(stored, rejections ?? 0));
  }

  return { readScopeIndex, readScopeIndexIncluding, scopeIndexSnapshot, applyScopeIndexChanges, reconcileScopeIndex };
}

export type ScopeIndexStore = ReturnType<typeof scopeIndexStore>;
