import { ConfigError, parseConfig, type EvolutionConfig } from '../core';
import { resolveTemporalProfile } from './temporal-profile';
import { loadPayloadKeys } from '../codec/keys';

/** The variables that point at the local development services (infra/env.ts `infraEnv`). */
export type LocalServicesEnv = () => Record<string, string | undefined>;

/**
 * Configuration for every process (worker, CLI, client, demo): environment variables,
 * falling back to `localServices` — the endpoints of the services `evolution infra up`
 * started, which the CLI passes in (this layer does not know about local infrastructure).
 * Set EVOLUTION_IGNORE_LOCAL_INFRA=1 to use environment variables and defaults only.
 * Temporal's address, namespace, API key and TLS come from a Temporal config profile and the
 * standard TEMPORAL_* variables (runtime/connection.ts).
 */
const LOCAL_S3_VARIABLES = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env, localServices?: LocalServicesEnv): EvolutionConfig {
  const local: Record<string, string | undefined> = env.EVOLUTION_IGNORE_LOCAL_INFRA === '1' || !localServices ? {} : { ...localServices() };
  // A chosen Temporal profile names its own address: the local dev server must not override it.
  if ((env.TEMPORAL_PROFILE || env.TEMPORAL_CONFIG_FILE) && !env.TEMPORAL_ADDRESS) delete local.TEMPORAL_ADDRESS;
  // So does an S3 endpoint named by its standard variable: the local server's address and keys go.
  if ((env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL) && !env.S3_ENDPOINT) for (const name of LOCAL_S3_VARIABLES) delete local[name];
  const merged = { ...local, ...env };
  const profile = resolveTemporalProfile(merged);
  const config = parseConfig({ ...merged, TEMPORAL_ADDRESS: profile.address ?? merged.TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE: profile.namespace ?? merged.TEMPORAL_NAMESPACE });
  const payloadKeys = loadPayloadKeys(merged.EVOLUTION_PAYLOAD_KEYS);
  const strict = merged.EVOLUTION_PAYLOAD_STRICT?.trim().toLowerCase();
  if (strict && strict !== 'true' && strict !== 'false')
    throw new ConfigError(`EVOLUTION_PAYLOAD_STRICT must be true or false, got ${JSON.stringify(merged.EVOLUTION_PAYLOAD_STRICT)}`);
  return {
    ...config,
    ...(payloadKeys ? { payloadKeys, payloadStrict: strict !== 'false' } : {}),
    ...(Object.keys(profile.connection).length ? { temporal: { ...config.temporal, connection: profile.connection } } : {}),
  };
}
