import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/import-graph';

// The scope index (index.json) has one writer: the scope's index workflow
// (workflows/scope-index.ts), through its activities (activities/scope-index.ts). Every other operation — learning jobs, approvals,
// rollbacks, imports — signals that workflow instead of writing the index itself.
const WRITES = /\.(applyScopeIndexChanges|reconcileScopeIndex)\(/;
const APPLICATION = ['core', 'storage', 'activities', 'client', 'workflows', 'runtime', 'workers', 'console', 'cli', 'infra', 'scripts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'dist' || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the scope index has one writer', () => {
  it('only the index workflow’s activities call the store’s index writes', () => {
    const writers = APPLICATION.flatMap((d) => sources(join(ROOT, d)))
      .filter((f) => WRITES.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(writers.sort()).toEqual(['activities/scope-index.ts', 'workflows/scope-index.ts']);
  });
});
