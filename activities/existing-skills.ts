import type { ExistingSkill } from '../core';
import type { ScopeIndex } from './storage';

/**
 * Every live skill of a scope as the reviewer and reconciler see it (managed or not),
 * from the scope index: one object, whatever the number of skills. Bodies are not in the
 * index; the reviewer decides from names and descriptions.
 */
export function existingSkillsOf(index: ScopeIndex | undefined): ExistingSkill[] {
  return (index?.skills ?? []).map((s) => ({ name: s.name, description: s.description, bodyExcerpt: '', managed: s.managed, skillId: s.skillId, revisionId: s.revisionId }));
}
