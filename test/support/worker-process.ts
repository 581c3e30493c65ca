import { spawn, type ChildProcess } from 'node:child_process';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll } from 'vitest';
import { createSkillStore, type SkillStore } from '../../storage';
import type { EvolutionConfig } from '../../core';
import { realServices, uniqueName } from './infra';
import { join } from 'node:path';
import { infraEnv } from '../../infra/env';
import { REPO_ROOT } from '../../infra/paths';

/**
 * The main worker as a separate OS process (`npx evolution worker`), exactly as deployed.
 * It runs in its own process group, so `kill()` reaches it and nothing else.
 */
export interface WorkerProcess {
  child: ChildProcess;
  /** stdout + stderr so far (for failure messages). */
  output(): string;
  /** Resolves once the worker polls its task queue. */
  ready: Promise<void>;
  /** Signals the whole process group; resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `baseEnv`: what the process inherits before `env` (default: this process's environment and the local services'). */
export function startWorkerProcess(env: Record<string, string>, baseEnv: NodeJS.ProcessEnv = { ...process.env, ...infraEnv() }): WorkerProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'worker'], {
    cwd: REPO_ROOT,
    env: { ...baseEnv, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('[worker] polling task queue')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`worker exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}):\n${out}`)));
  });
  ready.catch(() => undefined); // observed by whoever awaits it
  return {
    child,
    output: () => out,
    ready,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* already gone */
      }
      await exited;
    },
  };
}

export interface WorkerProcessFixture {
  /** The real services, on a task queue of this file's own, with the human gate off. */
  config: EvolutionConfig;
  client: Client;
  store: SkillStore;
  /** Every process the file started; each is stopped (SIGTERM, then SIGKILL) after the file. */
  workers: WorkerProcess[];
}

/** One test file's worker processes, with a Temporal client and a store beside them. */
export function useWorkerProcesses(taskQueuePrefix: string): WorkerProcessFixture {
  const fx = { workers: [] } as unknown as WorkerProcessFixture;
  let connection: Connection | undefined;
  beforeAll(async () => {
    const base = await realServices();
    fx.config = { ...base, temporal: { ...base.temporal, taskQueue: uniqueName(taskQueuePrefix) }, governance: { ...base.governance, humanGate: 'none' } };
    connection = await Connection.connect({ address: fx.config.temporal.address });
    fx.client = new Client({ connection, namespace: fx.config.temporal.namespace });
    fx.store = createSkillStore(fx.config.s3);
  });
  afterAll(async () => {
    // Only the processes this file started, each by its own process group.
    await Promise.all(fx.workers.map((w) => Promise.race([w.kill('SIGTERM'), new Promise((r) => setTimeout(r, 15_000))]).then(() => w.kill('SIGKILL'))));
    await connection?.close();
  });
  return fx;
}

/** Starts one more worker process on the fixture's task queue (stopped with the file) and waits until it polls. */
export async function startFixtureWorker(fx: WorkerProcessFixture, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const w = startWorkerProcess({ EVOLUTION_TASK_QUEUE: fx.config.temporal.taskQueue, ...env });
  fx.workers.push(w);
  await w.ready;
  return w;
}

/** Polls `check` every 100 ms until it holds; `what` names the wait in the timeout error. */
export async function pollUntil(what: string | (() => string), check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
