import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { infraEnv } from '../../infra';
import { REPO_ROOT } from '../../infra/paths';

export interface ConsoleProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** `evolution console --port 0` as its own process (a replica), resolved once it prints its URL. */
export async function startConsoleProcess(env: Record<string, string>): Promise<ConsoleProcess> {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'evolution.js'), 'console', '--port', '0'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...infraEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`console exited with ${code}: ${out}`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
