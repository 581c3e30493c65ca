import { expect, vi } from 'vitest';
import type { SkillStore } from '../../storage';
import { SkillRepository } from '../../client/skill-repository';
import { isLivePointer, renderSkillMarkdown, type Scope } from '../../core';

/**
 * Asserts that everything agents can see of one skill follows the active pointer, and
 * that the pointer names `revisionId`: exactly that revision is active, every other
 * revision that was ever published is archived, the scope index matches, and a fresh
 * repository client loads that version (its SKILL.md rendered from the pointer).
 */
export async function expectPublished(store: SkillStore, scope: Scope & { key: string }, skillId: string, revisionId: string): Promise<void> {
  const active = await store.readActive(scope.key, skillId);
  expect(active?.pointer.revisionId).toBe(revisionId);
  if (!isLivePointer(active?.pointer)) throw new Error(`pointer of ${skillId} is not live`);

  const revisions = await store.listRevisions(scope.key, skillId);
  const target = revisions.find((r) => r.id === revisionId);
  expect(target?.status).toBe('active');
  expect(active.pointer.spec).toEqual(target!.spec);
  for (const r of revisions) {
    if (r.id === revisionId) continue;
    const everPublished = r.history.some((h) => h.to === 'active');
    if (everPublished) expect({ id: r.id, status: r.status }).toEqual({ id: r.id, status: 'archived' });
    else expect(r.status).not.toBe('active');
  }

  // The index is materialized by the scope's index workflow, right after the publication's
  // signal: it follows the pointer within a burst.
  const markdown = renderSkillMarkdown(active.pointer.spec);
  const spec = active.pointer.spec;
  await vi.waitFor(
    async () => {
      const index = await store.readScopeIndex(scope.key);
      const entry = index && !index.notModified ? index.index.skills.find((s) => s.skillId === skillId) : undefined;
      expect(entry).toEqual({ skillId, name: spec.name, description: spec.description, revisionId, managed: active.pointer.managed, seq: active.pointer.seq });
    },
    { timeout: 30_000, interval: 200 },
  );

  const repo = new SkillRepository(store, scope);
  const loaded = await repo.load(active.pointer.spec.name);
  expect(loaded).toMatchObject({ revisionId, skillId, markdown });
}
