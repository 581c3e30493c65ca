import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createServer } from 'node:net';

/** Starts a long-lived process in its own process group, logging to a file. */
export function startDetached(command: string, args: string[], opts: { logFile: string; cwd?: string; env?: NodeJS.ProcessEnv }): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.unref();
  if (!child.pid) throw new Error(`could not start ${command}`);
  return child.pid;
}

/**
 * Whether the process still runs. A killed process whose parent has not reaped it yet (a
 * zombie: `npm test` starts the services, then waits on vitest) still answers signal 0,
 * so on Linux its state in /proc decides.
 */
export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): signal 0 is the answer
  }
}

/** SIGTERM to the process group, then SIGKILL if it has not exited within the grace period. */
export async function stopProcessGroup(pid: number, graceMs = 10_000): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) signal('SIGKILL');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Asks the kernel for free loopback ports (held together so they are distinct). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<import('node:net').Server>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as import('node:net').AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Whether every one of these loopback ports can be bound right now. */
export async function portsFree(ports: number[]): Promise<boolean> {
  const servers: import('node:net').Server[] = [];
  try {
    for (const port of ports) {
      servers.push(
        await new Promise<import('node:net').Server>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(port, '127.0.0.1', () => resolve(s));
        }),
      );
    }
    return true;
  } catch {
    return false;
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * The ports a service had last time when they are all still free (a restarted service
 * comes back where running clients and workers look for it), fresh ones otherwise.
 */
export async function reusePortsOrFresh(names: string[], previous: Record<string, number> | undefined): Promise<Record<string, number>> {
  const old = names.map((n) => previous?.[n]);
  if (old.every((p): p is number => typeof p === 'number' && p > 0) && (await portsFree(old))) return Object.fromEntries(names.map((n, i) => [n, old[i]!]));
  const fresh = await freePorts(names.length);
  return Object.fromEntries(names.map((n, i) => [n, fresh[i]!]));
}

/** The service's process died before it became healthy. */
export class ExitedDuringStartupError extends Error {
  override name = 'ExitedDuringStartupError';
}

/** Polls `check` until it resolves true; throws when the process dies first or after the timeout. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, pid?: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pid !== undefined && !isAlive(pid)) throw new ExitedDuringStartupError(`${what} exited during start-up`);
    try {
      if (await check()) return;
    } catch {
      /* not ready yet */
    }
    await sleep(250);
  }
  throw new Error(`${what} was not healthy within ${Math.round(timeoutMs / 1000)} s`);
}
