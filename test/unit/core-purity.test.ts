import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// core/skills, core/learning and core/workflow-inputs are imported by workflow code: no I/O, no Node APIs, no nondeterminism.
const ROOTS = ['core/skills', 'core/learning', 'core/workflow-inputs'];
const FORBIDDEN: Array<[string, RegExp]> = [
  ['node: import', /from\s+['"]node:/],
  ['Node builtin import', /from\s+['"](fs|path|crypto|os|child_process|buffer|process)['"]/],
  ['require()', /\brequire\(/],
  ['Buffer', /\bBuffer\b/],
  ['process', /\bprocess\./],
  ['Date.now', /\bDate\.now\b/],
  ['new Date()', /new Date\(\s*\)/],
  ['Math.random', /\bMath\.random\b/],
  ['setTimeout', /\bset(Timeout|Interval)\b/],
  ['fetch', /\bfetch\(/],
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('core purity', () => {
  it('uses no Node APIs, I/O or nondeterministic sources in core/skills and core/learning', () => {
    const offences: string[] = [];
    for (const file of ROOTS.flatMap(files)) {
      const source = readFileSync(file, 'utf8');
      for (const [label, re] of FORBIDDEN) if (re.test(source)) offences.push(`${file}: ${label}`);
    }
    expect(offences).toEqual([]);
    expect(ROOTS.flatMap(files).length).toBeGreaterThan(10);
  });
});
