import { parseDuration } from '../core/duration';
import type { EvolutionConfig } from '../core';

// Apart from client/service-errors.ts so the skill repository reads it without loading the Temporal client.

/** How long a client call waits for a service when nothing says otherwise (EVOLUTION_CLIENT_CONNECT_TIMEOUT). */
export const DEFAULT_CLIENT_CONNECT_TIMEOUT_MS = 10_000;

/** The deadline of client calls: the deps' configuration, else EVOLUTION_CLIENT_CONNECT_TIMEOUT, else 10 s. */
export function clientTimeoutMs(config?: Pick<EvolutionConfig, 'runtime'>): number {
  const configured = config?.runtime?.clientConnectTimeoutMs;
  if (configured) return configured;
  const fromEnv = process.env.EVOLUTION_CLIENT_CONNECT_TIMEOUT;
  if (fromEnv) {
    try {
      const ms = parseDuration(fromEnv);
      if (ms && ms > 0) return ms;
    } catch {
      // an invalid value is reported by parseConfig; the default applies here
    }
  }
  return DEFAULT_CLIENT_CONNECT_TIMEOUT_MS;
}
