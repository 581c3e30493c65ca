import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createSkillStore } from '../../storage';
import { connectTemporal, type Connected } from '../../runtime/connection';
import { startLearningJob, waitForLearningJob } from '../../client/learning';
import type { EvolutionConfig } from '../../core';
import { infraEnv } from '../../infra/env';
import { REPO_ROOT } from '../../infra/paths';
import { freeLocalPort } from '../../workers/telemetry/runtime';
import { emulateBuild, parseDockerfile, runShell, stageEnv, type EmulatedBuild } from '../support/dockerfile';
import { realServices, uniqueName } from '../support/infra';
import { exampleSession } from '../support/sessions';
import { pollUntil } from '../support/worker-process';

/**
 * The image without a Docker engine: the Dockerfile's own build steps (npm ci --omit=dev, npm ci,
 * npm run build) run here, stage by stage, in temporary folders (test/support/dockerfile.ts); the
 * runtime stage's files then run as the container would (its ENV, WORKDIR and CMD, the
 * HEALTHCHECK command) against the real local services. Not run here: the base image itself and
 * its `apt-get install tini` layer (checked statically in test/unit/dockerfile.test.ts).
 */
const stages = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const notRunHere: string[] = [];
let out: string;
let build: EmulatedBuild;
let app: string;
let config: EvolutionConfig;
let temporal: Connected;
let worker: ChildProcess | undefined;
let workerOutput = '';

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'image-build-'));
  build = emulateBuild({
    stages,
    contextDir: REPO_ROOT,
    outDir: out,
    run(stage, command, cwd, env) {
      if (stage === runtime && /^apt-get update\s/.test(command)) {
        notRunHere.push(command); // the base image's system packages (tini)
        return;
      }
      runShell(command, cwd, env);
    },
  });
  app = join(build.roots[runtime.name]!, build.workdirs[runtime.name]!);
  config = await realServices();
  temporal = await connectTemporal(config);
}, 20 * 60_000);

afterAll(async () => {
  if (worker && worker.exitCode === null) worker.kill('SIGKILL');
  await temporal?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** The container's environment: the image's ENV, then what compose or Kubernetes would set. */
function containerEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH!, HOME: out, ...stageEnv(runtime), ...infraEnv(), ...extra };
}

/** The image's CMD and HEALTHCHECK name `node`: the Node.js LTS this suite runs on. */
const nodeOf = (argv: string[]) => (argv[0] === 'node' ? [process.execPath, ...argv.slice(1)] : argv);

describe('the image, built and run from the Dockerfile steps (no Docker engine)', () => {
  it('ships production dependencies, the compiled application and the prebuilt workflow bundle, no sources or dev tools', () => {
    expect(notRunHere).toHaveLength(1);
    for (const path of [
      'package.json',
      'bin/evolution.js',
      'runtime/build-state.js',
      'dist/cli/main.js',
      'dist/workflow-bundle.js',
      'dist/.build-stamp',
      'node_modules/@temporalio/worker',
      'node_modules/@temporalio/core-bridge',
    ]) {
      expect(existsSync(join(app, path)), path).toBe(true);
    }
    for (const path of ['node_modules/typescript', 'node_modules/vitest', 'node_modules/eslint', 'core', 'workflows', 'test', 'package-lock.json']) {
      expect(existsSync(join(app, path)), `${path} is not shipped`).toBe(false);
    }
    // The CLI answers from dist/: there is no TypeScript to fall back to.
    const help = spawnSync(process.execPath, ['bin/evolution.js', 'help'], { cwd: app, env: containerEnv({}), encoding: 'utf8', timeout: 60_000 });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('worker');
  });

  it(
    'runs the CMD as a worker that learns a skill, answers the HEALTHCHECK, and drains on SIGTERM with exit 0',
    async () => {
      const port = await freeLocalPort();
      const taskQueue = uniqueName('tq-image');
      const env = containerEnv({ EVOLUTION_METRICS_PORT: String(port), EVOLUTION_TASK_QUEUE: taskQueue, EVOLUTION_HUMAN_GATE: 'none' });
      const [command, ...args] = nodeOf(runtime.steps.filter((s) => s.keyword === 'CMD').at(-1)!.exec!);
      expect(args).toEqual(['bin/evolution.js', 'worker']);
      worker = spawn(command!, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
      worker.stdout!.on('data', (c: Buffer) => (workerOutput += c.toString()));
      worker.stderr!.on('data', (c: Buffer) => (workerOutput += c.toString()));
      const exited = new Promise<number | null>((resolve) => worker!.once('exit', (code) => resolve(code)));

      await pollUntil(
        () => `the image's worker to be ready on :${port}/readyz:\n${workerOutput.slice(-4000)}`,
        async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200,
        120_000,
      );
      const health = nodeOf(runtime.steps.find((s) => s.keyword === 'HEALTHCHECK')!.exec!);
      expect(spawnSync(health[0]!, health.slice(1), { cwd: app, env, timeout: 30_000 }).status).toBe(0);

      const scoped = { ...config, temporal: { ...config.temporal, taskQueue } };
      const store = createSkillStore(config.s3);
      const started = await startLearningJob(
        { client: temporal.client, store, config: scoped },
        { app: uniqueName('image-app'), user: 'u1', sessionId: 's1', events: exampleSession('weather-report') },
      );
      const outcome = await waitForLearningJob({ client: temporal.client, store }, started.jobWorkflowId, { timeoutMs: 5 * 60_000 });
      expect(outcome.revisions.map((r) => r.status)).toEqual(['active']); // published: agents load it

      worker.kill('SIGTERM');
      expect(await exited, workerOutput.slice(-4000)).toBe(0);
      // The HEALTHCHECK fails once the process is gone (it checks something real).
      expect(spawnSync(health[0]!, health.slice(1), { cwd: app, env, timeout: 30_000 }).status).toBe(1);
    },
    10 * 60_000,
  );

  it(
    "runs docker-compose.yml's other commands on the image (model stand-in, console): each serves its health endpoint",
    async () => {
      const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { build?: unknown; command?: string[] }> };
      const users = join(out, 'console-users.json');
      const token = 'image-build-token';
      writeFileSync(users, JSON.stringify([{ name: 'ops', role: 'viewer', scopes: ['*'], tokenSha256: createHash('sha256').update(token).digest('hex') }]));
      const checks = { model: '/v1/models', console: '/healthz' } as const;
      for (const [service, path] of Object.entries(checks)) {
        const command = compose.services[service]!.command!;
        expect(compose.services[service]!.build, service).toBeDefined();
        const port = await freeLocalPort();
        // The same command with this machine's free port instead of the container's fixed one.
        const argv = nodeOf(command.map((a, i) => (command[i - 1] === '--port' ? String(port) : a)));
        const child = spawn(argv[0]!, argv.slice(1), { cwd: app, env: containerEnv({ EVOLUTION_CONSOLE_USERS: users }), stdio: ['ignore', 'pipe', 'pipe'] });
        let output = '';
        child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
        try {
          await pollUntil(
            () => `${service} (${command.join(' ')}) to answer ${path} on :${port}:\n${output.slice(-4000)}`,
            async () => (await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined))?.status === 200,
            120_000,
          );
        } finally {
          child.kill('SIGKILL');
        }
      }
    },
    5 * 60_000,
  );
});
