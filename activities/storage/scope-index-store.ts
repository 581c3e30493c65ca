import { z } from 'zod';
import { isLivePointer } from '../../core';
import { retryOnConflict } from './cas-retry';
import { scopeIndexKey } from './keys';
import { mapLimit } from './map-limit';
import { parseJson, type ObjectStore } from './object-store';
import type { PointerStore } from './pointer-store';

export const ScopeIndexEntrySchema = z.object({
  skillId: z.string(),
  name: z.string(),
  description: z.string(),
  revisionId: z.string(),
});
export type ScopeIndexEntry = z.infer<typeof ScopeIndexEntrySchema>;

/**
 * Every active skill of a scope, for agents (progressive disclosure: index first, body on
 * demand). Derived from the active pointers and rewritten only when a rebuild runs (after
 * a publication), so between publications an agent's conditional GET is a 304.
 */
export const ScopeIndexSchema = z.object({
  scopeKey: z.string(),
  /** +1 on every write, so every write has a new ETag (see rebuildScopeIndex). */
  generation: z.number().int().nonnegative(),
  skills: z.array(ScopeIndexEntrySchema),
});
export type ScopeIndex = z.infer<typeof ScopeIndexSchema>;

export type ScopeIndexRead = { notModified: true } | { notModified?: false; index: ScopeIndex; etag: string };

export function scopeIndexStore(objects: ObjectStore, pointers: PointerStore, listSkillIds: (scopeKey: string) => Promise<string[]>) {
  async function collectSkills(scopeKey: string): Promise<ScopeIndexEntry[]> {
    const skillIds = await listSkillIds(scopeKey);
    const pointerReads = await mapLimit(skillIds, 8, (id) => pointers.readActive(scopeKey, id));
    return pointerReads
      .map((read) => read?.pointer)
      .filter(isLivePointer)
      .map((p) => ({ skillId: p.skillId, name: p.spec.name, description: p.spec.description, revisionId: p.revisionId }))
      .sort((a, b) => (a.skillId < b.skillId ? -1 : a.skillId > b.skillId ? 1 : 0));
  }

  /**
   * Rebuilds the index from the pointers so that concurrent rebuilds converge: the last
   * rebuild to start sees every publication that completed before it.
   * - The index ETag is read *before* the pointers are listed and the write is
   *   conditional on it, so a write lands only if no other rebuild wrote since our read,
   *   i.e. since before our listing: a rebuild that listed earlier (and may have missed a
   *   publication) always loses to one that listed later. (Listing first, then reading
   *   the ETag, would let a stale listing win.)
   * - Every write bumps `generation`, even when the skills are unchanged. Otherwise a
   *   rebuild that finds nothing to change (or rewrites identical bytes, keeping the
   *   ETag) would leave a slower rebuild's ETag valid: if that one listed while a
   *   pointer was briefly B (A → B → A), its stale B would land last.
   */
  async function rebuildScopeIndex(scopeKey: string): Promise<{ index: ScopeIndex; etag: string }> {
    const key = scopeIndexKey(scopeKey);
    return retryOnConflict(
      async () => {
        const current = await objects.getJson(key, ScopeIndexSchema);
        const skills = await collectSkills(scopeKey);
        const index: ScopeIndex = { scopeKey, generation: (current?.value.generation ?? 0) + 1, skills };
        const { etag } = current ? await objects.putIfMatch(key, index, current.etag) : await objects.putCreateOnly(key, index);
        return { index, etag };
      },
      { attempts: 30 },
    );
  }

  /** One conditional GET; undefined when the scope has never been indexed (no skills). */
  async function readScopeIndex(scopeKey: string, ifNoneMatch?: string): Promise<ScopeIndexRead | undefined> {
    const key = scopeIndexKey(scopeKey);
    const got = await objects.getText(key, ifNoneMatch);
    if (!got || got.notModified) return got;
    return { index: parseJson(key, got.value, ScopeIndexSchema), etag: got.etag };
  }

  return { rebuildScopeIndex, readScopeIndex };
}

export type ScopeIndexStore = ReturnType<typeof scopeIndexStore>;
