import type { SkillSpec } from '../schemas/skill';

// Rendering half of SKILL.md (see skill-markdown.ts for the format): no schema, so the
// workflow code that renders and normalizes specs stays free of zod.

export const lf = (s: string) => s.replace(/\r\n?/g, '\n');
/** `\n` line endings, whitespace-only lines emptied, surrounding whitespace trimmed. */
const cleanBlock = (s: string) =>
  lf(s)
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : line))
    .join('\n')
    .trim();

/** The canonical form of a spec: what a render/parse round trip preserves. */
export function normalizeSkillSpec(spec: SkillSpec): SkillSpec {
  const list = (items: readonly string[] | undefined) => (items ?? []).map(cleanBlock).filter((s) => s !== '');
  return {
    name: spec.name.trim(),
    description: spec.description.trim(),
    when_to_use: cleanBlock(spec.when_to_use),
    steps: list(spec.steps),
    pitfalls: list(spec.pitfalls),
  };
}

export function renderSkillMarkdown(input: SkillSpec): string {
  const spec = normalizeSkillSpec(input);
  const out: string[] = [
    '---',
    `name: ${yamlDoubleQuoted(spec.name)}`,
    `description: ${yamlDoubleQuoted(spec.description)}`,
    '---',
    '',
    `# ${spec.name.replace(/\s+/g, ' ')}`,
    '',
    '## When to use',
    '',
  ];
  if (spec.when_to_use !== '') out.push(...spec.when_to_use.split('\n').map(escapeTextLine), '');
  out.push('## Steps', '');
  spec.steps.forEach((step, i) => out.push(...renderListItem(`${i + 1}. `, step)));
  if (spec.pitfalls.length > 0) {
    out.push('', '## Pitfalls', '');
    for (const pitfall of spec.pitfalls) out.push(...renderListItem('- ', pitfall));
  }
  return out.join('\n') + '\n';
}

/** A list item whose continuation lines are indented to the item's content column. */
function renderListItem(marker: string, text: string): string[] {
  const indent = ' '.repeat(marker.length);
  return text.split('\n').map((line, i) => (i === 0 ? marker + line : line === '' ? '' : indent + line));
}

/** Free-text lines that could read as a heading (or as our own escape) get a leading backslash. */
function escapeTextLine(line: string): string {
  return /^[#\\]/.test(line) ? `\\${line}` : line;
}

/** A YAML double-quoted scalar; JSON escaping plus every non-printable YAML character as \uXXXX. */
export function yamlDoubleQuoted(value: string): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
