import { spawn, type ChildProcess } from 'node:child_process';
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

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'worker'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...infraEnv(), ...env },
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
