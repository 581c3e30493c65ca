import { randomUUID } from 'node:crypto';
import { createBucket, createS3Client } from '../../storage';
import type { EvolutionConfig } from '../../core';
import { loadConfig } from '../../runtime/config';
import { infraEnv, infraUp, readState, type ServiceName } from '../../infra';
import { isAlive } from '../../infra/process';

/**
 * The configuration pointing at the real local services a test file needs, bringing up
 * the ones that are not running (`npm test` has usually started them all already).
 * A running service is used as it is, not health-checked: files run side by side, and
 * `infraUp` restarts a live service whose health check was merely slow on a loaded
 * machine, which would pull it from under the files in flight.
 */
export async function realServices(only: ServiceName[] = ['s3', 'temporal', 'model']): Promise<EvolutionConfig> {
  const current = readState();
  const state = only.every((name) => isAlive(current.services[name]?.pid)) ? current : await infraUp({ only });
  return loadConfig({ ...process.env, ...infraEnv(state) });
}

/** A new, empty bucket on the local S3 server: for a test that must see everything written to it, and nothing else. */
export async function freshBucket(config: EvolutionConfig, prefix: string): Promise<EvolutionConfig> {
  const bucket = uniqueName(prefix);
  const s3 = createS3Client(config.s3);
  try {
    await createBucket(s3, bucket);
  } finally {
    s3.destroy();
  }
  return { ...config, s3: { ...config.s3, bucket } };
}

/** A name no other test (or earlier run) uses: keeps tests independent on shared servers. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Kills one local service of this checkout the hard way (SIGKILL, as a crash would), leaving its state behind. */
export async function crashService(name: ServiceName): Promise<void> {
  const pid = readState().services[name]?.pid;
  if (!pid) throw new Error(`${name} is not running`);
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    process.kill(pid, 'SIGKILL');
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} (pid ${pid}) did not die`);
}

/**
 * Freezes one local service of this checkout (SIGSTOP: its port still accepts connections,
 * nothing answers, as a hung server) while `during` runs, and thaws it (SIGCONT) afterwards,
 * whatever happened.
 */
export async function whileFrozen<T>(name: ServiceName, during: () => Promise<T>): Promise<T> {
  const pid = readState().services[name]?.pid;
  if (!pid) throw new Error(`${name} is not running`);
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      process.kill(pid, sig);
    }
  };
  signal('SIGSTOP');
  try {
    return await during();
  } finally {
    signal('SIGCONT');
  }
}
