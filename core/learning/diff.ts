import type { SkillSpec } from '../schemas/skill';
import { renderSkillMarkdown } from '../skills/skill-markdown-render';

/**
 * A small line diff (longest common subsequence) rendered unified-style, for
 * showing an approver what a revision changes in SKILL.md.
 */

export interface DiffLine {
  kind: 'equal' | 'add' | 'remove';
  text: string;
}

/** Above this many cells the middle is shown as replaced wholesale rather than aligned. */
const MAX_LCS_CELLS = 4_000_000;

export function diffLines(oldLines: readonly string[], newLines: readonly string[]): DiffLine[] {
  let prefix = 0;
  while (prefix < oldLines.length && prefix < newLines.length && oldLines[prefix] === newLines[prefix]) prefix++;
  let suffix = 0;
  while (suffix < oldLines.length - prefix && suffix < newLines.length - prefix && oldLines[oldLines.length - 1 - suffix] === newLines[newLines.length - 1 - suffix]) {
    suffix++;
  }
  const a = oldLines.slice(prefix, oldLines.length - suffix);
  const b = newLines.slice(prefix, newLines.length - suffix);
  const equal = (lines: readonly string[]) => lines.map((text): DiffLine => ({ kind: 'equal', text }));
  return [...equal(oldLines.slice(0, prefix)), ...diffMiddle(a, b), ...equal(oldLines.slice(oldLines.length - suffix))];
}

function diffMiddle(a: readonly string[], b: readonly string[]): DiffLine[] {
  const removeAll = a.map((text): DiffLine => ({ kind: 'remove', text }));
  const addAll = b.map((text): DiffLine => ({ kind: 'add', text }));
  if (a.length === 0 || b.length === 0 || a.length * b.length > MAX_LCS_CELLS) return [...removeAll, ...addAll];
  // lcs[i][j] = LCS length of a[i..] and b[j..]
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'equal', text: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) {
      out.push({ kind: 'remove', text: a[i++] });
    } else {
      out.push({ kind: 'add', text: b[j++] });
    }
  }
  while (i < a.length) out.push({ kind: 'remove', text: a[i++] });
  while (j < b.length) out.push({ kind: 'add', text: b[j++] });
  return out;
}

export interface UnifiedDiffOptions {
  oldLabel?: string;
  newLabel?: string;
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
}

/** Unified diff of two texts; empty string when they are equal. */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions = {}): string {
  const split = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const lines = diffLines(split(oldText), split(newText));
  if (lines.every((l) => l.kind === 'equal')) return '';
  const context = options.context ?? 3;

  // Positions (1-based) of each diff line in the old and new texts.
  const positions: Array<{ old: number; new: number }> = [];
  let o = 1;
  let n = 1;
  for (const l of lines) {
    positions.push({ old: o, new: n });
    if (l.kind !== 'add') o++;
    if (l.kind !== 'remove') n++;
  }

  // Group changed lines whose context windows touch into hunks.
  const hunks: Array<[number, number]> = [];
  lines.forEach((l, idx) => {
    if (l.kind === 'equal') return;
    const start = Math.max(0, idx - context);
    const end = Math.min(lines.length - 1, idx + context);
    const last = hunks[hunks.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else hunks.push([start, end]);
  });

  const out = [`--- ${options.oldLabel ?? 'a/SKILL.md'}`, `+++ ${options.newLabel ?? 'b/SKILL.md'}`];
  for (const [start, end] of hunks) {
    const slice = lines.slice(start, end + 1);
    const oldCount = slice.filter((l) => l.kind !== 'add').length;
    const newCount = slice.filter((l) => l.kind !== 'remove').length;
    // An empty side is reported at the line before it, as diff(1) does.
    const oldStart = oldCount === 0 ? positions[start].old - 1 : positions[start].old;
    const newStart = newCount === 0 ? positions[start].new - 1 : positions[start].new;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const l of slice) out.push(`${l.kind === 'add' ? '+' : l.kind === 'remove' ? '-' : ' '}${l.text}`);
  }
  return out.join('\n') + '\n';
}

/**
 * What a revision changes, as a unified diff of the rendered SKILL.md files.
 * `before` is undefined for a create, `after` for a delete.
 */
export function skillDiff(before: SkillSpec | undefined, after: SkillSpec | undefined, options: UnifiedDiffOptions = {}): string {
  const render = (s: SkillSpec | undefined) => (s ? renderSkillMarkdown(s) : '');
  return unifiedDiff(render(before), render(after), {
    oldLabel: options.oldLabel ?? (before ? 'active/SKILL.md' : '/dev/null'),
    newLabel: options.newLabel ?? (after ? 'candidate/SKILL.md' : '/dev/null'),
    context: options.context,
  });
}
