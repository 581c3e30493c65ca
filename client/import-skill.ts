import { auditEventId, parseSkillMarkdown, scopeKey as scopeKeyOf, sha256Hex, skillIdForName, type Scope } from '../core';
import { movePointer } from '../activities/publisher';
import { indexChangeFor, type SkillStore } from '../storage';
import { InputError, StateError } from '../core/errors';

/**
 * Publishes a hand-written SKILL.md as an UNMANAGED skill: agents load it and the
 * reviewer sees it (for dedup), but evolution never updates or deletes it. It moves the
 * pointer through the publisher like every other operation (operation id: the scope,
 * skill and content, so importing the same file twice is one operation), then updates
 * the index itself (a CLI has no worker); the scope's index workflow merges
 * by pointer seq, so the two writers converge.
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
  const digest = sha256Hex(markdown).slice(0, 24);
  const revisionId = `external-${digest}`;
  const opId = `import/${key}/${skillId}/${digest}`;
  const result = await movePointer(store, {
    scopeKey: key,
    skillId,
    opId,
    at,
    actor: 'import',
    reason: `imported ${spec.name}`,
    action: 'import',
    target: { skillId, revisionId, managed: false, spec, deleted: false },
  });
  const now = await store.readActive(key, skillId);
  if (now) await store.applyScopeIndexChanges(key, [indexChangeFor(now.pointer)]);
  return { scopeKey: key, skillId, revisionId, name: spec.name, auditId: auditEventId(opId, 'import'), applied: result.kind === 'applied' };
}
