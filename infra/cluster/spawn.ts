import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** A user to run a process as (PostgreSQL refuses to run as root). */
export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * Starts a long-lived process of the cluster in its own process group, logging to a file
 * (infra/process.ts startDetached, plus the user to run it as).
 */
export function startClusterProcess(command: string, args: string[], opts: { logFile: string; cwd?: string; env?: NodeJS.ProcessEnv; runAs?: RunAs }): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const fd = openSync(opts.logFile, 'a');
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', fd, fd], ...(opts.runAs ?? {}) });
  closeSync(fd);
  child.unref();
  if (!child.pid) throw new Error(`could not start ${command}`);
  return child.pid;
}

/** Runs a command to its end; a failure carries its output. */
export function runToEnd(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; runAs?: RunAs; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: opts.cwd, env: opts.env ?? process.env, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024, ...(opts.runAs ?? {}) },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${command.split('/').pop()} ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`.trim()));
        else resolve(stdout);
      },
    );
  });
}
