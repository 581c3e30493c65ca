import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { clusterEnv } from '../../infra/cluster';
import { REPO_ROOT } from '../../infra/paths';

/** One `npx evolution …` process of the suite (worker, evaluator or console) in its own process group. */
export interface CliProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `readyPattern` in its output. */
  ready: Promise<RegExpMatchArray>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `evolution ARGS` pointed at the cluster (plus `env`); ready once its output matches `readyPattern`. */
export function startCliProcess(name: string, args: string[], env: Record<string, string>, readyPattern: RegExp): CliProcess {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...clusterEnv(), ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<RegExpMatchArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(readyPattern);
      if (match) resolve(match);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`${name} exited before it was ready (code ${child.exitCode}, signal ${child.signalCode}):\n${out}`)));
  });
  ready.catch(() => undefined);
  return {
    name,
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

/** Stops processes as a deployment would (SIGTERM, the worker drains), SIGKILL after 30 s. */
export async function stopAll(processes: CliProcess[]): Promise<void> {
  await Promise.all(processes.map((p) => Promise.race([p.kill('SIGTERM'), new Promise((r) => setTimeout(r, 30_000))]).then(() => p.kill('SIGKILL'))));
}
