/**
 * `npm test`: brings up the real local services (Temporal dev server, SeaweedFS S3,
 * local model server; the time-skipping test server binary is installed for the
 * workflow tests) and the build (dist/, whose prebuilt workflow bundle every test file
 * shares), then runs the whole vitest suite against them.
 * Extra arguments go to vitest, e.g. `npm test -- test/unit`: when every path given is
 * under test/unit, nothing is started (unit tests are pure).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { infraEnv, infraUp } from '../infra';
import { REPO_ROOT, stateDir } from '../infra/paths';
import { ensureBuild } from '../runtime/build-state';
import { unitTestsOnly } from './test-selection';
import { runToExit } from '../runtime/exit';

async function main(): Promise<number> {
  const started = Date.now();
  const vitestArgs = process.argv.slice(2);
  let env: Record<string, string> = {};
  if (!unitTestsOnly(vitestArgs)) {
    const state = await infraUp({ log: (l) => console.error(`[infra] ${l}`) });
    console.error(`[infra] ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (!ensureBuild((l) => console.error(l))) console.error('[build] no current build: each test file bundles the workflows itself (slower)');
    env = infraEnv(state);
  }
  mkdirSync(stateDir(), { recursive: true });
  const resultsFile = join(stateDir(), 'test-results.json');
  const vitest = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
  const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`, ...vitestArgs];
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (existsSync(resultsFile)) {
    const r = JSON.parse(readFileSync(resultsFile, 'utf8')) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    // The plain closing line CI reads.
    console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  }
  return result.status ?? 1;
}

runToExit(main, (e) => `npm test: ${(e as Error).stack ?? e}`);
