/**
 * What `skill_load` puts before a skill's SKILL.md in its tool result: which revision the
 * agent was given, so a learning job can attribute the session's outcome to that revision
 * from the transcript alone. An HTML comment, so the model reads the SKILL.md as before.
 */
export interface LoadedRevisionRef {
  name: string;
  skillId: string;
  revisionId: string;
  scopeKey: string;
}

const OPEN = '<!-- skill_load ';
const CLOSE = ' -->';

/** The marker line for a loaded revision. `>` is escaped so no value can close the comment early. */
export function skillLoadMarker(ref: LoadedRevisionRef): string {
  const json = JSON.stringify({ name: ref.name, skillId: ref.skillId, revisionId: ref.revisionId, scopeKey: ref.scopeKey }).replaceAll('>', '\\u003e');
  return `${OPEN}${json}${CLOSE}`;
}

/** The revision a tool result names on its first line, or undefined (an older tool, an error, anything else). */
export function parseSkillLoadMarker(text: string): LoadedRevisionRef | undefined {
  const start = text.indexOf(OPEN);
  if (start < 0 || text.slice(0, start).trim() !== '') return undefined;
  const end = text.indexOf(CLOSE, start + OPEN.length);
  if (end < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start + OPEN.length, end));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const fields = ['name', 'skillId', 'revisionId', 'scopeKey'] as const;
  if (!fields.every((f) => typeof v[f] === 'string' && (v[f] as string).length > 0 && (v[f] as string).length <= 512)) return undefined;
  return { name: v.name as string, skillId: v.skillId as string, revisionId: v.revisionId as string, scopeKey: v.scopeKey as string };
}
