import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const STALE_MS = 10 * 60_000;
const WAIT_MS = 15 * 60_000;

/** One attempt at a cross-process lock: mkdir is atomic; a dead holder's lock is broken. */
function tryAcquire(lockDir: string): boolean {
  mkdirSync(dirname(lockDir), { recursive: true });
  try {
    mkdirSync(lockDir);
    writeFileSync(join(lockDir, 'pid'), String(process.pid));
    return true;
  } catch {
    if (isStale(lockDir)) rmSync(lockDir, { recursive: true, force: true });
    return false;
  }
}

function isStale(lockDir: string): boolean {
  try {
    if (Date.now() - statSync(lockDir).mtimeMs > STALE_MS) return true;
    const pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
    if (!pid) return false;
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export function withDirLock<T>(lockDir: string, fn: () => T): T {
  const deadline = Date.now() + WAIT_MS;
  while (!tryAcquire(lockDir)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockDir}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export async function withDirLockAsync<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  while (!tryAcquire(lockDir)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
