import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A process's or thread's CPU so far, in ms: in user space and in the kernel (system calls, such as socket writes). */
export interface ThreadCpu {
  user: number;
  system: number;
}

/** The CPU a /proc/.../stat line reports (Linux). */
function statCpu(stat: string): ThreadCpu {
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime (fields 14 and 15), in ticks; CLK_TCK is 100 on Linux.
  return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 };
}

/** CPU time (user + system) a process has used so far, in ms, from /proc/PID/stat (Linux). */
export function cpuMs(pid: number): number {
  const { user, system } = statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return user + system;
}

/** CPU time of a process and all its descendants (a service started through a launcher, such as tsx, runs in a child). */
export function treeCpuMs(pid: number): number {
  let total = cpuMs(pid);
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {
      // the thread has ended
    }
    for (const child of children) total += treeCpuMs(Number(child));
  }
  return total;
}

/**
 * CPU ms per thread of a process so far, keyed `name#tid` (Linux). In a worker: the main
 * thread is `node#{pid}`, the workflow thread the busiest other `node`, V8's GC and
 * compiler helpers the remaining `node` threads, Temporal's core `tokio-runtime-w`.
 */
export function threadCpuMs(pid: number): Record<string, ThreadCpu> {
  const out: Record<string, ThreadCpu> = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      out[`${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}#${tid}`] = statCpu(stat);
    } catch {
      // the thread has ended
    }
  }
  return out;
}

export interface StartedProcess {
  child: ChildProcess;
  pid: number;
  /** ms from spawn until the ready line appeared. */
  readyMs: number;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `command args` and resolves once `readyLine` appears on stdout or stderr. */
export function startProcess(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; readyLine: string; cwd?: string; timeoutMs?: number }): Promise<StartedProcess> {
  const t0 = performance.now();
  const child = spawn(command, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')}: not ready after ${opts.timeoutMs ?? 120_000} ms:\n${out}`)), opts.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      const before = out.includes(opts.readyLine);
      out += chunk.toString();
      if (!before && out.includes(opts.readyLine)) {
        clearTimeout(timer);
        resolve({
          child,
          pid: child.pid!,
          readyMs: performance.now() - t0,
          output: () => out,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited before it was ready (code ${child.exitCode}):\n${out}`));
    });
  });
}

/** Wall time of running `command args` to completion, in ms. */
export function timeCommand(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${err}`)))),
  );
}
