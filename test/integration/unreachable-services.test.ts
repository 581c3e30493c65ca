import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectTemporal } from '../../runtime/connection';
import { ServiceUnavailableError } from '../../core/errors';
import type { EvolutionConfig } from '../../core';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';
import { freePorts } from '../../infra/process';
import { realServices } from '../support/infra';

// A service that cannot be reached: one line naming it, its address and what to do,
// from the probe (2 s at most) instead of an SDK's raw error after its retries.
const run = promisify(execFile);
let config: EvolutionConfig;
let deadPort: number;

beforeAll(async () => {
  config = await realServices(['s3', 'temporal']);
  [deadPort] = await freePorts(1); // nothing listens there
});

async function runNode(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    const r = await run(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, ...infraEnv(), ...env }, timeout: 60_000 });
    return { code: 0, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}
const evolution = (args: string[], env: Record<string, string>) => runNode([join(REPO_ROOT, 'bin', 'evolution.js'), ...args], env);
const lines = (s: string) => s.trim().split('\n');

describe('unreachable services', () => {
  it('CLI, S3 down: one line naming S3, its address and the fix', async () => {
    const r = await evolution(['pending', '--app', 'a'], { S3_ENDPOINT: `http://127.0.0.1:${deadPort}` });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `evolution pending: S3 at http://127.0.0.1:${deadPort} cannot be reached (ECONNREFUSED): run \`npx evolution infra up\` for the local services, or set S3_ENDPOINT to where it runs`,
    ]);
  });

  it('CLI, Temporal down: one line from the probe, not the SDK connection deadline', async () => {
    const r = await evolution(['approve', 'rev-1', '--reviewer', 'r'], { TEMPORAL_ADDRESS: `127.0.0.1:${deadPort}` });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `evolution approve: Temporal at 127.0.0.1:${deadPort} cannot be reached (ECONNREFUSED): run \`npx evolution infra up\` for the local services, or set TEMPORAL_ADDRESS to where it runs`,
    ]);
  });

  it('CLI skills, S3 down: the skill repository says so in the same line as every command', async () => {
    const r = await evolution(['skills', '--app', 'a'], { S3_ENDPOINT: `http://127.0.0.1:${deadPort}` });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `evolution skills: S3 at http://127.0.0.1:${deadPort} cannot be reached (ECONNREFUSED): run \`npx evolution infra up\` for the local services, or set S3_ENDPOINT to where it runs`,
    ]);
  });

  it('worker, model endpoint down: refuses to start with one line', async () => {
    const r = await runNode([join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'workers/main.ts'], { OPENAI_BASE_URL: `http://127.0.0.1:${deadPort}/v1` });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([
      `[worker] the model endpoint at http://127.0.0.1:${deadPort}/v1 cannot be reached (ECONNREFUSED): run \`npx evolution infra up\` for the local services, or set OPENAI_BASE_URL to where it runs`,
    ]);
  });

  it('client entry point: connectTemporal rejects with a ServiceUnavailableError', async () => {
    const err = await connectTemporal({ ...config, temporal: { ...config.temporal, address: `127.0.0.1:${deadPort}` } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceUnavailableError);
    expect((err as ServiceUnavailableError).service).toBe('Temporal');
  });
});
