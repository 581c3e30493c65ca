/**
 * The compiled CLI (dist/, what `npx evolution` runs) finds the checkout's services the way
 * the TypeScript sources do: its paths are relative to the repository, not to dist/.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readState } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { DIST } from '../../runtime/build-state';

const run = promisify(execFile);

describe('npx evolution infra (compiled)', () => {
  it('reports the services this checkout started, with the default state directory', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.EVOLUTION_STATE_DIR; // the default: <checkout>/.evolution
    const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'infra', 'status', '--json'], { cwd: REPO_ROOT, env, timeout: 60_000 });
    const started = readState().services;
    const reported = (JSON.parse(stdout) as { services: { name: string; healthy: boolean; pid?: number }[] }).services;
    for (const name of ['temporal', 's3', 'model'] as const) {
      expect(reported.find((s) => s.name === name)).toMatchObject({ healthy: true, pid: started[name]!.pid });
    }
  });

  it('the compiled infra code resolves the repository, not dist/', async () => {
    const { stdout } = await run(process.execPath, ['-e', `process.stdout.write(require(${JSON.stringify(join(DIST, 'infra', 'paths.js'))}).REPO_ROOT)`], { timeout: 30_000 });
    expect(stdout).toBe(REPO_ROOT);
  });
});
