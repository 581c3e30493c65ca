import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newestMtime } from '../../runtime/build-state';

function fileAt(path: string, seconds: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '');
  utimesSync(path, seconds, seconds);
}

// What makes dist/ stale is a source the build reads. The client package's own build output
// (client/dist, written by `npm pack` in client-package.test.ts while other tests run) and
// installed modules are not sources: counting them rebuilt dist/ in the middle of a CI run,
// under the feet of the CLI processes other tests were starting.
describe('the sources a build reads', () => {
  it('the newest source file, not counting build outputs or installed modules below it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'build-state-'));
    fileAt(join(dir, 'index.ts'), 1_000);
    fileAt(join(dir, 'nested', 'part.ts'), 2_000);
    fileAt(join(dir, 'dist', 'client', 'index.js'), 9_000);
    fileAt(join(dir, 'dist', 'client', 'index.d.ts'), 9_000);
    fileAt(join(dir, 'node_modules', 'x', 'index.js'), 9_000);
    fileAt(join(dir, 'notes.md'), 9_000);
    expect(newestMtime(dir)).toBe(2_000_000);
  });
});
