import { randomUUID } from 'node:crypto';
import type { EvolutionConfig } from '../../core';
import { loadConfig } from '../../client/config';
import { infraEnv, infraUp, type ServiceName } from '../../infra';

/**
 * Brings up the real local services a test file needs (idempotent; `npm test` has
 * usually started them already) and returns the configuration pointing at them.
 */
export async function realServices(only: ServiceName[] = ['s3', 'temporal', 'model']): Promise<EvolutionConfig> {
  const state = await infraUp({ only });
  return loadConfig({ ...process.env, ...infraEnv(state) });
}

/** A name no other test (or earlier run) uses: keeps tests independent on shared servers. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}
