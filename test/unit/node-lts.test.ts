import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir, REPO_ROOT } from '../../infra/paths';

const { NODE_LTS, cacheDir: bootstrapCacheDir } = require('../../runtime/node-lts.js') as { NODE_LTS: string; cacheDir: () => string };
const major = (v: string) => Number(v.replace(/^\D*/, '').split('.')[0]);
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };

describe('the Node.js LTS the product runs on (runtime/node-lts.js)', () => {
  it('is what package.json engines (the client package too), @types/node and the Dockerfile name', () => {
    expect(pkg.engines.node).toBe(`>=${major(NODE_LTS)}`);
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'client', 'package.json'), 'utf8')).engines.node).toBe(pkg.engines.node);
    expect(major(pkg.devDependencies['@types/node']!)).toBe(major(NODE_LTS));
    const froms = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')
      .split('\n')
      .filter((l) => /^FROM\s/i.test(l));
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms) expect(from).toMatch(new RegExp(`^FROM node:${NODE_LTS.replace(/\./g, '\\.')}-`));
  });

  it('runs this suite: npm test starts vitest under it even where the machine has an older node', () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(major(NODE_LTS));
  });

  it('is cached where the other binaries are (the bootstrap repeats infra/paths.ts cacheDir)', () => {
    expect(bootstrapCacheDir()).toBe(cacheDir());
  });
});
