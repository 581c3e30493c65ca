import { existingNames, relevanceIndex, type ExistingSkill, type RelevanceIndex } from '../core';
import type { ScopeIndex } from '../storage';

/**
 * Every live skill of a scope as the reviewer and reconciler see it (managed or not),
 * from the scope index: one object, whatever the number of skills. Bodies are not in the
 * index; the reviewer decides from names and descriptions.
 */
export function existingSkillsOf(index: ScopeIndex | undefined): ExistingSkill[] {
  return (index?.skills ?? []).map((s) => ({ name: s.name, description: s.description, bodyExcerpt: '', managed: s.managed, skillId: s.skillId, revisionId: s.revisionId }));
}

/**
 * The scope's skills for a review and a plan, derived once per version of the index: the
 * store hands back the same object while the index is unchanged (a 304), so a busy scope's
 * jobs share this work instead of each redoing it over every skill.
 */
export function scopeSkillsOf(index: ScopeIndex | undefined): ScopeSkills {
  if (!index) return NO_SKILLS;
  let prepared = derived.get(index);
  if (!prepared) {
    // Frozen, so the reconciler and the Spec gate keep what they derive from it (existingNames).
    const existing = Object.freeze(existingSkillsOf(index).map((s) => Object.freeze(s)));
    // A new version of a busy scope's index differs from the last in a few skills: what was
    // derived per skill (words, ids) is reused.
    const last = latest.get(index.scopeKey);
    existingNames(existing, last?.existing);
    prepared = { existing, relevance: relevanceIndex(existing, last?.relevance) };
    derived.set(index, prepared);
    latest.delete(index.scopeKey);
    latest.set(index.scopeKey, prepared);
    if (latest.size > LATEST_SCOPES) latest.delete(latest.keys().next().value!);
  }
  return prepared;
}

export interface ScopeSkills {
  existing: readonly ExistingSkill[];
  relevance: RelevanceIndex<ExistingSkill>;
}

const derived = new WeakMap<ScopeIndex, ScopeSkills>();
/** The last version prepared per scope (as many scopes as the store keeps indexes of). */
const latest = new Map<string, ScopeSkills>();
const LATEST_SCOPES = 256;
const NO_SKILLS: ScopeSkills = { existing: Object.freeze([]), relevance: relevanceIndex([]) };
