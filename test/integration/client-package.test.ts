import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePayloadKeys } from '../../codec/keys';
import { ENCRYPTED_ENCODING } from '../../codec/aes-gcm-codec';
import type { EvolutionConfig } from '../../core';
import { REPO_ROOT } from '../../infra/paths';
import { realServices, uniqueName } from '../support/infra';
import { startMainWorker, type RunningWorker } from '../support/worker';

// The client library as a platform gets it: packed from client/, installed alone into an empty
// project (its dependencies from the registry, or npm's cache), and its example run with plain
// node against the local services and the real main worker of this test. The deployment encrypts
// payloads in strict mode (its workers refuse plaintext workflow inputs and signals), so the
// example's job only runs if the installed package's codec is the workers' codec.
const run = promisify(execFile);
const KEYS = `platform-2026:${randomBytes(32).toString('base64')}`;
let w: RunningWorker;
let config: EvolutionConfig;
const dir = mkdtempSync(join(tmpdir(), 'client-package-'));
const MAX_INSTALLED_BYTES = 60 * 1024 * 1024;

beforeAll(async () => {
  const base = await realServices();
  config = {
    ...base,
    payloadKeys: parsePayloadKeys(KEYS),
    payloadStrict: true,
    governance: { ...base.governance, humanGate: 'none', approvalTimeoutMs: undefined, shadowMode: false },
  };
  w = await startMainWorker(config);
  config = w.config;
});

afterAll(async () => {
  await w?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The encodings of the payloads a workflow's history starts with: its input and the first signal (what the client sent). */
async function clientSentEncodings(workflowId: string): Promise<string[]> {
  const res = await w.client.workflowService.getWorkflowExecutionHistory({ namespace: config.temporal.namespace, execution: { workflowId } });
  const events = res.history!.events!;
  const started = events.find((e) => e.workflowExecutionStartedEventAttributes)!.workflowExecutionStartedEventAttributes!;
  const signalled = events.find((e) => e.workflowExecutionSignaledEventAttributes)!.workflowExecutionSignaledEventAttributes!;
  return [...started.input!.payloads!, ...signalled.input!.payloads!].map((p) => new TextDecoder().decode(p.metadata!.encoding!));
}

function bytesUnder(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

describe('@skill-evolution/client, packed and installed alone', () => {
  it(
    'installs without the worker, openai or tsx, stays small, and its example learns a skill with encrypted payloads and loads it through skill_load',
    { timeout: 600_000 },
    async () => {
      await run('npm', ['pack', '--workspace', 'client', '--pack-destination', dir], { cwd: REPO_ROOT });
      const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
      expect(tarball).toMatch(/^skill-evolution-client-.*\.tgz$/);

      const project = join(dir, 'platform');
      mkdirSync(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'platform', private: true, type: 'module' }));
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], { cwd: project, timeout: 300_000 });
      const modules = join(project, 'node_modules');
      for (const absent of ['@temporalio/worker', '@temporalio/core-bridge', 'openai', 'tsx', 'typescript']) expect(existsSync(join(modules, absent)), absent).toBe(false);
      expect(existsSync(join(modules, '@skill-evolution/client/dist/client/index.d.ts'))).toBe(true);
      const installed = bytesUnder(modules);
      console.log(`installed size of @skill-evolution/client with its dependencies: ${(installed / 1024 / 1024).toFixed(1)} MB`);
      expect(installed).toBeLessThan(MAX_INSTALLED_BYTES);

      copyFileSync(join(modules, '@skill-evolution/client/examples/learn-and-load.mjs'), join(project, 'learn-and-load.mjs'));
      const app = uniqueName('packed');
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TEMPORAL_ADDRESS: config.temporal.address,
        TEMPORAL_NAMESPACE: config.temporal.namespace,
        EVOLUTION_TASK_QUEUE: config.temporal.taskQueue,
        S3_ENDPOINT: config.s3.endpoint,
        S3_BUCKET: config.s3.bucket,
        S3_ACCESS_KEY_ID: config.s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: config.s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        EVOLUTION_PAYLOAD_KEYS: KEYS,
      };
      const session = join(REPO_ROOT, 'examples', 'sessions', 'weather-report.json');
      const { stdout } = await run(process.execPath, ['learn-and-load.mjs', session, app], { cwd: project, env, timeout: 300_000 });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
        job: { sessionWorkflowId: string };
        status: string;
        revisions: { name: string; status: string }[];
        tool: { type: string; function: { name: string; description: string } };
        loaded: string;
      };
      expect(result.status).toBe('reviewed');
      expect(result.revisions).toEqual([expect.objectContaining({ name: 'multi-city-weather-report', status: 'active' })]);
      expect(result.tool).toMatchObject({ type: 'function', function: { name: 'skill_load' } });
      expect(result.tool.function.description).toContain('multi-city-weather-report');
      expect(result.loaded).toContain('name: "multi-city-weather-report"');
      const encodings = await clientSentEncodings(result.job.sessionWorkflowId);
      expect(encodings.length).toBeGreaterThanOrEqual(2);
      expect(new Set(encodings)).toEqual(new Set([ENCRYPTED_ENCODING]));
    },
  );
});
