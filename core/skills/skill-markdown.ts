import { SkillSpecSchema, type SkillSpec } from '../schemas/skill';
import { lf } from './skill-markdown-render';

export { normalizeSkillSpec, renderSkillMarkdown, yamlDoubleQuoted } from './skill-markdown-render';

/**
 * SKILL.md: YAML frontmatter with `name` and `description`, then the sections
 * `## When to use`, `## Steps` (numbered) and `## Pitfalls` (bulleted).
 *
 * The frontmatter writer/reader below handles exactly the YAML this needs
 * (the `yaml` package is not sandbox-safe for workflow code): values are
 * written as double-quoted scalars; reading also accepts single-quoted,
 * plain and block (`|`, `>`) scalars, as found in hand-written skills, and
 * ignores other keys.
 *
 * Round trip: parseSkillMarkdown(renderSkillMarkdown(s)) equals
 * normalizeSkillSpec(s): surrounding whitespace is trimmed, line endings
 * become `\n`, empty steps/pitfalls are dropped; everything else (inner
 * newlines, indentation, `#`, `---`, quotes, unicode) survives.
 */

export class SkillMarkdownError extends Error {
  override name = 'SkillMarkdownError';
}

function unescapeTextLine(line: string): string {
  return line.startsWith('\\') ? line.slice(1) : line;
}

const FRONTMATTER_KEYS = ['name', 'description'] as const;
type FrontmatterKey = (typeof FRONTMATTER_KEYS)[number];

function readFrontmatter(lines: string[]): { values: Partial<Record<FrontmatterKey, string>>; bodyStart: number } {
  if (lines[0]?.trim() !== '---') throw new SkillMarkdownError('SKILL.md must start with a YAML frontmatter line "---"');
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    if (/^(---|\.\.\.)\s*$/.test(lines[i])) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new SkillMarkdownError('SKILL.md frontmatter is not closed by a "---" line');

  const values: Partial<Record<FrontmatterKey, string>> = {};
  let i = 1;
  while (i < end) {
    const line = lines[i];
    const entry = /^([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]+([^\n]*))?$/.exec(line);
    if (!entry) {
      // Comments, blank lines and nested content of keys we do not read.
      if (line.trim() === '' || /^\s/.test(line) || /^\s*#/.test(line) || /^-( |$)/.test(line)) {
        i++;
        continue;
      }
      throw new SkillMarkdownError(`SKILL.md frontmatter line ${i + 1} is not "key: value": ${JSON.stringify(line.slice(0, 80))}`);
    }
    const key = entry[1];
    const raw = (entry[2] ?? '').trim();
    // Indented lines after a key belong to it (block or continued plain scalar).
    let next = i + 1;
    while (next < end && (lines[next].trim() === '' || /^\s/.test(lines[next]))) next++;
    if ((FRONTMATTER_KEYS as readonly string[]).includes(key)) {
      const k = key as FrontmatterKey;
      if (values[k] !== undefined) throw new SkillMarkdownError(`SKILL.md frontmatter repeats the key "${k}"`);
      values[k] = readScalar(raw, lines.slice(i + 1, next), k);
    }
    i = next;
  }
  return { values, bodyStart: end + 1 };
}

function readScalar(raw: string, continuation: string[], key: string): string {
  if (raw.startsWith('"')) {
    const m = /^"((?:[^"\\]|\\[\s\S])*)"\s*(#[^\n]*)?$/.exec(raw);
    if (!m) throw new SkillMarkdownError(`SKILL.md frontmatter "${key}" has an unterminated double-quoted value`);
    return unescapeDoubleQuoted(m[1], key);
  }
  if (raw.startsWith("'")) {
    const m = /^'((?:[^']|'')*)'\s*(#[^\n]*)?$/.exec(raw);
    if (!m) throw new SkillMarkdownError(`SKILL.md frontmatter "${key}" has an unterminated single-quoted value`);
    return m[1].replace(/''/g, "'");
  }
  const block = /^([|>])([+-]?)\s*(#[^\n]*)?$/.exec(raw);
  if (block) return readBlockScalar(block[1] as '|' | '>', block[2], continuation);
  const plain = [raw, ...continuation.map((l) => l.trim())].filter((l) => l !== '').join(' ');
  return plain.replace(/\s+#[^\n]*$/, '').trim();
}

function readBlockScalar(style: '|' | '>', chomp: string, lines: string[]): string {
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^\s*/.exec(l)![0].length), Infinity);
  const body = lines.map((l) => (l.trim() === '' ? '' : l.slice(indent === Infinity ? 0 : indent)));
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  let text: string;
  if (style === '|') text = body.join('\n');
  else text = body.reduce((acc, l, i) => (i === 0 ? l : l === '' ? `${acc}\n` : acc.endsWith('\n') ? acc + l : `${acc} ${l}`), '');
  if (chomp === '-') return text;
  return text === '' ? '' : `${text}\n`;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

function unescapeDoubleQuoted(body: string, key: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i];
    if (e in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[e];
      continue;
    }
    const hexLength = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
    const hex = body.slice(i + 1, i + 1 + hexLength);
    if (hexLength === 0 || !new RegExp(`^[0-9A-Fa-f]{${hexLength}}$`).test(hex)) {
      throw new SkillMarkdownError(`SKILL.md frontmatter "${key}" has an invalid escape "\\${e ?? ''}"`);
    }
    const code = parseInt(hex, 16);
    // \uD83D\uDE00 pairs are concatenated as code units; \U takes a whole code point.
    out += hexLength === 8 ? codePoint(code, key) : String.fromCharCode(code);
    i += hexLength;
  }
  return out;
}

function codePoint(code: number, key: string): string {
  if (code > 0x10ffff) throw new SkillMarkdownError(`SKILL.md frontmatter "${key}" escapes a code point beyond U+10FFFF`);
  return String.fromCodePoint(code);
}

// ---------------------------------------------------------------------------
// Body

type Section = 'when_to_use' | 'steps' | 'pitfalls' | 'other';

function sectionOf(title: string): Section {
  const t = title.trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === 'when to use' || t === 'when_to_use') return 'when_to_use';
  if (t === 'steps') return 'steps';
  if (t === 'pitfalls') return 'pitfalls';
  return 'other';
}

const LIST_ITEM = /^(\d+[.)]|[-*+])([ \t]+)([^\n]*)$/;

/** Items of a numbered or bulleted list; continuation lines are de-indented by the item's content column. */
function readList(lines: string[]): string[] {
  const items: string[][] = [];
  let current: string[] | undefined;
  let contentColumn = 0;
  let pendingBlank = 0;
  for (const line of lines) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      current = [item[3]];
      items.push(current);
      contentColumn = item[1].length + item[2].length;
      pendingBlank = 0;
      continue;
    }
    if (line.trim() === '') {
      pendingBlank++;
      continue;
    }
    if (!current) continue;
    const indented = /^[ \t]/.test(line);
    if (!indented && pendingBlank > 0) {
      // An unindented paragraph after a blank line is not part of the list.
      current = undefined;
      continue;
    }
    for (; pendingBlank > 0; pendingBlank--) current.push('');
    const lead = /^ */.exec(line)![0].length;
    current.push(line.slice(Math.min(lead, contentColumn)));
  }
  return items.map((parts) => parts.join('\n').trim()).filter((s) => s !== '');
}

/** Parse SKILL.md into a SkillSpec; throws SkillMarkdownError with the reason when the document is malformed. */
export function parseSkillMarkdown(text: string): SkillSpec {
  const lines = lf(text.replace(/^\ufeff/, '')).split('\n');
  const { values, bodyStart } = readFrontmatter(lines);
  if (values.name === undefined || values.name.trim() === '') throw new SkillMarkdownError('SKILL.md frontmatter needs a non-empty "name"');

  const sections: Record<Section, string[]> = { when_to_use: [], steps: [], pitfalls: [], other: [] };
  const seen = new Set<Section>();
  let current: Section = 'other';
  for (const line of lines.slice(bodyStart)) {
    const heading = /^(#{1,2})[ \t]+([^\n]*?)[ \t#]*$/.exec(line);
    if (heading) {
      current = heading[1] === '#' ? 'other' : sectionOf(heading[2]);
      if (current !== 'other' && seen.has(current)) throw new SkillMarkdownError(`SKILL.md has more than one "## ${heading[2].trim()}" section`);
      seen.add(current);
      continue;
    }
    sections[current].push(line);
  }

  const result = SkillSpecSchema.safeParse({
    name: values.name,
    description: (values.description ?? '').trim(),
    when_to_use: sections.when_to_use.map(unescapeTextLine).join('\n').trim(),
    steps: readList(sections.steps),
    pitfalls: readList(sections.pitfalls),
  });
  if (!result.success) {
    throw new SkillMarkdownError(`SKILL.md does not describe a valid skill: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return result.data;
}
