import { parseSkillMarkdown, scopeKey as scopeKeyOf, sha256Hex, skillIdForName, type Scope } from '../core';
import type { SkillStore } from '../activities/storage';
import { InputError, StateError } from './errors';

/**
 * Publishes a hand-written SKILL.md as an UNMANAGED skill: agents load it and the
 * reviewer sees it (for dedup), but evolution never updates or deletes it.
 */
export async function importUnmanagedSkill(store: SkillStore, scope: Scope, markdown: string, at = new Date().toISOString()) {
  let spec;
  try {
    spec = parseSkillMarkdown(markdown);
  } catch (e) {
    throw new InputError(`not a valid SKILL.md: ${(e as Error).message}`);
  }
  const key = scopeKeyOf(scope);
  const skillId = skillIdForName(spec.name);
  const current = await store.readActive(key, skillId);
  if (current?.pointer.managed) throw new StateError(`skill ${skillId} is managed by evolution in ${key}; an import would take it out of governance`);
  const revisionId = `external-${sha256Hex(markdown).slice(0, 24)}`;
  await store.writeActive(key, skillId, { skillId, revisionId, spec, publishedAt: at, managed: false }, current?.etag ?? null);
  await store.writePublished(key, skillId, markdown);
  await store.rebuildScopeIndex(key);
  return { scopeKey: key, skillId, revisionId, name: spec.name };
}
