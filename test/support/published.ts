import { expect } from 'vitest';
import type { SkillStore } from '../../activities/storage';
import { SkillRepository } from '../../client/skill-repository';
import { isLivePointer, renderSkillMarkdown, type Scope } from '../../core';

/**
 * Asserts that everything agents can see of one skill follows the active pointer, and
 * that the pointer names `revisionId`: exactly that revision is active, every other
 * revision that was ever published is archived, SKILL.md and the scope index match,
 * and a fresh repository client loads that version.
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

  const markdown = renderSkillMarkdown(active.pointer.spec);
  const published = await store.readPublished(scope.key, skillId);
  expect(published && !published.notModified ? published.markdown : undefined).toBe(markdown);
  const index = await store.readScopeIndex(scope.key);
  const entry = index && !index.notModified ? index.index.skills.find((s) => s.skillId === skillId) : undefined;
  expect(entry).toEqual({ skillId, name: active.pointer.spec.name, description: active.pointer.spec.description, revisionId });

  const repo = new SkillRepository(store, scope);
  const loaded = await repo.load(active.pointer.spec.name);
  expect(loaded).toMatchObject({ revisionId, skillId, markdown });
}
