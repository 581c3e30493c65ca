import { createHash } from 'node:crypto';
import { isLivePointer, type SessionEvent } from '../../core';

/**
 * A skill name no other (`seed`, i) shares a word or a substring with: the reconciler
 * merges similar names (numbered siblings, word overlap), so "skill-1" and "skill-12"
 * would not stay two skills.
 */
export function distinctSkillName(seed: string, i: number): string {
  const hash = createHash('sha256').update(`${seed}/${i}`).digest();
  return Array.from(hash.subarray(0, 10), (b) => String.fromCharCode(97 + (b % 26))).join('');
}
import type { SkillStore } from '../../storage';
import { exampleSession } from './sessions';

/**
 * An example session naming its skill `name` (the model stand-in's [[skill:NAME]] marker,
 * in every user message: a follow-up's delta starts after the first one).
 */
export function sessionCreating(name: string, example: Parameters<typeof exampleSession>[0] = 'weather-report'): SessionEvent[] {
  return exampleSession(example).map((e) => {
    const text = typeof e.content === 'string' ? e.content.replace(/\[\[skill:[^\]]*\]\]/g, '') : e.content;
    return { ...e, content: e.role === 'user' ? `[[skill:${name}]] ${text as string}` : text };
  });
}

/**
 * Every rule that ties a scope's published state together, each violation collected:
 * per skill, the derived statuses (exactly one active revision, the pointer's), the index
 * entry (revision and seq), and the audit log (no duplicate ids; one
 * publication entry per operation the pointer remembers, none for others).
 */
export async function publicationProblems(store: SkillStore, scopeKey: string): Promise<string[]> {
  const problems: string[] = [];
  const read = await store.readScopeIndex(scopeKey);
  const index = read && !read.notModified ? read.index : undefined;
  for (const skillId of await store.listSkillIds(scopeKey)) {
    const pointer = (await store.readActive(scopeKey, skillId))?.pointer;
    const revisions = await store.listRevisions(scopeKey, skillId);
    const audit = await store.listAudit(scopeKey, skillId);
    if (!pointer) continue;
    const active = revisions.filter((r) => r.status === 'active').map((r) => r.id);
    if (active.length !== 1 || active[0] !== pointer.revisionId) problems.push(`${skillId}: pointer names ${pointer.revisionId}, active revisions [${active.join(', ')}]`);
    const entry = index?.skills.find((s) => s.skillId === skillId);
    if (isLivePointer(pointer)) {
      if (entry?.revisionId !== pointer.revisionId || entry.seq !== pointer.seq)
        problems.push(`${skillId}: index entry ${JSON.stringify(entry)} vs pointer ${pointer.revisionId}@${pointer.seq}`);
    } else if (entry) problems.push(`${skillId}: deleted, but still in the index`);
    if (new Set(audit.map((e) => e.id)).size !== audit.length) problems.push(`${skillId}: duplicate audit ids`);
    const publications = audit.filter((e) => e.opId && e.baseSeq !== undefined);
    const remembered = new Set(pointer.recent.map((o) => o.opId));
    for (const op of remembered)
      if (publications.filter((e) => e.opId === op).length !== 1)
        problems.push(`${skillId}: operation ${op} moved the pointer but has ${publications.filter((e) => e.opId === op).length} log entries`);
    if (pointer.recent.length !== Math.min(pointer.seq, 32)) problems.push(`${skillId}: pointer seq ${pointer.seq} but ${pointer.recent.length} remembered operations`);
  }
  return problems;
}
