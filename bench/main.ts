/**
 * `npm run bench [-- NAME ...] [--json FILE]`: runs the named benchmarks (all when none is
 * named) against the local services and prints each figure as a ratio to a baseline
 * measured in the same invocation (interleaved, repeated, with the spread).
 *
 * A benchmark is a module `bench/NAME.ts` that exports `run(ctx): Promise<BenchFigures>`.
 * It is a measurement, not a test: nothing here asserts a time.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { infraEnv, infraUp } from '../infra';
import type { BenchContext, BenchFigures } from './support/types';
import { runToExit } from '../runtime/exit';

export const BENCHMARKS = ['scale', 'scope-size', 'throughput', 'activities', 's3-client', 'start-up', 'gepa', 'transcript'] as const;
/** Run only when named: `cluster` brings up the local cluster (and builds its server on a machine's first run). */
const ON_REQUEST = ['cluster'] as const;

async function main(argv: string[]): Promise<number> {
  const jsonAt = argv.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? argv[jsonAt + 1] : undefined;
  if (jsonAt >= 0 && !jsonFile) throw new Error('--json needs a file path');
  const names = argv.filter((a, i) => !a.startsWith('--') && (jsonAt < 0 || i !== jsonAt + 1));
  const known: readonly string[] = [...BENCHMARKS, ...ON_REQUEST];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`unknown benchmark(s): ${unknown.join(', ')} (known: ${known.join(', ')})`);
  const selected = names.length ? names : [...BENCHMARKS];

  if (selected.some((n) => !(ON_REQUEST as readonly string[]).includes(n))) {
    const state = await infraUp({ log: (l) => console.error(`[infra] ${l}`) });
    Object.assign(process.env, infraEnv(state));
  }
  const ctx: BenchContext = { log: (line) => console.log(line) };
  const results: Record<string, BenchFigures> = {};
  for (const name of selected) {
    console.log(`\n== bench ${name} ==`);
    const mod = (await import(join(__dirname, `${name}.ts`))) as { run(ctx: BenchContext): Promise<BenchFigures> };
    results[name] = await mod.run(ctx);
  }
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
  return 0;
}

runToExit(
  () => main(process.argv.slice(2)),
  (e) => `bench: ${(e as Error).stack ?? e}`,
);
