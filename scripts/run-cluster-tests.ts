/**
 * `npm run test:cluster`: brings the local cluster up (`infra up --cluster`: the Temporal
 * server built from source on PostgreSQL as separate services, a multi-process SeaweedFS;
 * the first run on a machine builds the server), the build, then the cluster suite
 * (vitest.cluster.config.mts) against it. Extra arguments go to vitest. The cluster keeps
 * running afterwards; `npx evolution infra down` stops it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterEnv, clusterUp } from '../infra/cluster';
import { REPO_ROOT, stateDir } from '../infra/paths';
import { ensureBuild } from '../runtime/build-state';
import { runToExit } from '../runtime/exit';

async function main(): Promise<number> {
  const started = Date.now();
  const state = await clusterUp({ log: (l) => console.error(`[cluster] ${l}`) });
  console.error(`[cluster] ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ensureBuild((l) => console.error(l))) console.error('[build] no current build: the processes run the sources through tsx (slower)');
  mkdirSync(stateDir(), { recursive: true });
  const resultsFile = join(stateDir(), 'cluster-test-results.json');
  const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const suiteStarted = Date.now();
  const args = [vitest, 'run', '--config', 'vitest.cluster.config.mts', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...process.argv.slice(2)];
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...clusterEnv(state) } });
  console.error(`[cluster] suite ran in ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s (${((Date.now() - started) / 1000).toFixed(1)} s with the cluster's start-up)`);
  if (existsSync(resultsFile)) {
    const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  }
  return result.status ?? 1;
}

runToExit(main, (e) => `npm run test:cluster: ${(e as Error).stack ?? e}`);
