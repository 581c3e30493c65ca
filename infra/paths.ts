import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Repository root (this file lives in `<root>/infra`). */
export const REPO_ROOT = resolve(__dirname, '..');

/** Downloaded binaries live outside the repo, shared by every clone on the machine. */
export function cacheDir(): string {
  const base = process.env.EVOLUTION_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'skill-evolution');
  return resolve(base);
}

/** Per-checkout runtime state: service pids, ports, data files, logs. */
export function stateDir(): string {
  return resolve(process.env.EVOLUTION_STATE_DIR || join(REPO_ROOT, '.evolution'));
}
