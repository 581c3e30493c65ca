import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runtimeGraph } from '../support/import-graph';

/**
 * `evolution help` (and the parsing of every command line) loads only the CLI's own small
 * modules: a command loads what it needs (the Temporal client, the S3 store, zod schemas,
 * the codec, OpenTelemetry) with import() when it runs, so `help` starts in a few hundred
 * milliseconds (`npm run bench -- start-up`).
 */
describe('CLI start-up imports', () => {
  const graph = runtimeGraph(join(ROOT, 'cli', 'main.ts'));

  it('loads no package but Node built-ins and the command-line parser (commander, no dependencies) before a command runs', () => {
    const packages = [...graph.packages].filter(([pkg]) => !pkg.startsWith('node:') && pkg !== 'commander').map(([pkg, via]) => `${pkg}: ${via.join(' -> ')}`);
    expect(packages).toEqual([]);
  });

  it('never goes through the core/ barrel, which builds every zod schema', () => {
    const barrels = ['core/index.ts', 'core/schemas/index.ts'].map((f) => join(ROOT, f));
    expect(barrels.filter((b) => graph.files.has(b)).map((b) => graph.files.get(b)!.join(' -> '))).toEqual([]);
  });

  it('follows the real graph (sanity: every command file is reached)', () => {
    const reached = [...graph.files.keys()].map((f) => relative(ROOT, f));
    expect(reached).toEqual(expect.arrayContaining(['cli/commands/index.ts', 'cli/commands/operations.ts', 'cli/commands/learning.ts']));
  });
});
