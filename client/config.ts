import { parseConfig, type EvolutionConfig } from '../core';
import { infraEnv } from '../infra/env';

/**
 * Configuration for every process (worker, CLI, client, demo): environment variables,
 * falling back to the endpoints of the local services started by `evolution infra up`.
 * Set EVOLUTION_IGNORE_LOCAL_INFRA=1 to use environment variables and defaults only.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): EvolutionConfig {
  const local = env.EVOLUTION_IGNORE_LOCAL_INFRA === '1' ? {} : infraEnv();
  return parseConfig({ ...local, ...env });
}
