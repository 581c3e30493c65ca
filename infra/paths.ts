import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/**
 * Repository root: the nearest directory above this file with a package.json. This file
 * lives in `<root>/infra` as TypeScript and in `<root>/dist/infra` compiled, so a fixed
 * `..` would make the compiled CLI look for its state, logs and model server under dist/.
 */
export const REPO_ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** Downloaded binaries live outside the repo, shared by every clone on the machine. */
export function cacheDir(): string {
  const base = process.env.EVOLUTION_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skill-evolution');
  return resolve(base);
}

/** Per-checkout runtime state: service pids, ports, data files, logs. */
export function stateDir(): string {
  return resolve(process.env.EVOLUTION_STATE_DIR || join(REPO_ROOT, '.evolution'));
}
