import { isLivePointer, renderSkillMarkdown, type ExistingSkill } from '../core';
import { mapLimit, type SkillStore } from './storage';

/** Every live skill of a scope as the reviewer and reconciler see it (managed or not). */
export async function loadExistingSkills(store: SkillStore, scopeKey: string): Promise<ExistingSkill[]> {
  const ids = await store.listSkillIds(scopeKey);
  const pointers = await mapLimit(ids, 8, (id) => store.readActive(scopeKey, id));
  return pointers
    .map((p) => p?.pointer)
    .filter(isLivePointer)
    .map((p) => ({
      name: p.spec.name,
      description: p.spec.description,
      bodyExcerpt: renderSkillMarkdown(p.spec),
      managed: p.managed,
      skillId: p.skillId,
      revisionId: p.revisionId,
    }));
}
