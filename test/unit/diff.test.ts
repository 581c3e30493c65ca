import { describe, expect, it } from 'vitest';
import type { SkillSpec } from '../../core/schemas';
import { diffLines, skillDiff, unifiedDiff } from '../../core/learning';
import { renderSkillMarkdown } from '../../core/skills';

const spec: SkillSpec = { name: 'Weather', description: 'd', when_to_use: 'w', steps: ['a', 'b', 'c'], pitfalls: ['p'] };

describe('diffLines', () => {
  it('aligns on the longest common subsequence', () => {
    expect(diffLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'])).toEqual([
      { kind: 'equal', text: 'a' },
      { kind: 'remove', text: 'b' },
      { kind: 'add', text: 'x' },
      { kind: 'equal', text: 'c' },
      { kind: 'equal', text: 'd' },
      { kind: 'add', text: 'e' },
    ]);
  });

  it('reconstructs both sides', () => {
    const a = 'the quick brown fox jumps over the lazy dog'.split(' ');
    const b = 'a quick red fox leaps over the dog today'.split(' ');
    const ops = diffLines(a, b);
    expect(ops.filter((o) => o.kind !== 'add').map((o) => o.text)).toEqual(a);
    expect(ops.filter((o) => o.kind !== 'remove').map((o) => o.text)).toEqual(b);
  });
});

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toBe('');
  });

  it('renders hunks with context and line numbers', () => {
    const old = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n');
    const next = ['1', '2', '3', 'four', '5', '6', '7', '8', '9', '10', '11'].join('\n');
    expect(unifiedDiff(old, next, { context: 1 })).toBe(
      ['--- a/SKILL.md', '+++ b/SKILL.md', '@@ -3,3 +3,3 @@', ' 3', '-4', '+four', ' 5', '@@ -10,1 +10,2 @@', ' 10', '+11', ''].join('\n'),
    );
  });
});

describe('skillDiff', () => {
  it('shows a changed step of an update', () => {
    const d = skillDiff(spec, { ...spec, steps: ['a', 'B!', 'c'] });
    expect(d.startsWith('--- active/SKILL.md\n+++ candidate/SKILL.md\n@@ ')).toBe(true);
    expect(d).toContain('\n-2. b\n+2. B!\n');
    expect(d.split('\n').filter((l) => /^[+-][^+-]/.test(l))).toEqual(['-2. b', '+2. B!']);
  });

  it('shows a create as all additions and a delete as all removals', () => {
    const created = skillDiff(undefined, spec);
    expect(created.startsWith('--- /dev/null\n+++ candidate/SKILL.md\n@@ -0,0 +1,')).toBe(true);
    const body = renderSkillMarkdown(spec).trimEnd().split('\n');
    expect(created.trimEnd().split('\n').slice(3)).toEqual(body.map((l) => `+${l}`));
    const deleted = skillDiff(spec, undefined);
    expect(deleted.startsWith('--- active/SKILL.md\n+++ /dev/null\n@@ -1,')).toBe(true);
    expect(deleted.trimEnd().split('\n').slice(3)).toEqual(body.map((l) => `-${l}`));
  });
});
