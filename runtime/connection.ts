import { Client, Connection } from '@temporalio/client';
import { NO_ANSWER, probeTls } from './connection-probe';
import { ensureReachable } from './reachability';
import { serviceUnavailable, type ServiceUnavailableError } from '../core/errors';
import { evolutionDataConverter } from '../codec/data-converter';
import { clientInterceptors } from './tracing/client-interceptors';
import type { EvolutionConfig } from '../core';
import { clientConnectionOptions } from './temporal-profile';

/** Temporal could not be reached: says where, how, and the likely fix. */
export class TemporalConnectionError extends Error {
  override name = 'TemporalConnectionError';
}

function describe(config: EvolutionConfig): string {
  const tls = config.temporal.connection?.tls;
  const mode = !tls ? 'without TLS' : tls === true || !tls.clientCertPair ? 'with TLS' : 'with mutual TLS';
  return `Temporal at ${config.temporal.address} (namespace ${config.temporal.namespace}, ${mode})`;
}

/** A hint from the failure text (the worker's Rust client is specific), else from a TLS probe. */
function hintFromCause(cause: string): string | undefined {
  const msg = cause.toLowerCase();
  if (/certificaterequired|certificate required/.test(msg))
    return 'the server asks for a client certificate (mutual TLS): set TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH';
  if (/unknownissuer|self.signed|unable to verify/.test(msg)) {
    return "the server's certificate is not trusted: set TEMPORAL_TLS_SERVER_CA_CERT_PATH to the CA that signed it (and TEMPORAL_TLS_SERVER_NAME if it was issued for another name)";
  }
  if (/notvalidforname|not valid for name/.test(msg)) return "the server's certificate is for another name: set TEMPORAL_TLS_SERVER_NAME to the name it was issued for";
  return undefined;
}

/** How long connecting to Temporal may take (EVOLUTION_CLIENT_CONNECT_TIMEOUT, else the SDK's 10 s). */
const connectTimeoutMs = (config: EvolutionConfig) => config.runtime?.clientConnectTimeoutMs ?? 10_000;

/**
 * Wraps a failed connect with what was tried and what to change. A server that accepts the
 * connection but never answers (hung, stopped, overloaded) is the platform contract's one
 * line, as when nothing listens: "Temporal at … cannot be reached (no answer before the deadline)".
 */
export async function explainConnectError(e: unknown, config: EvolutionConfig): Promise<TemporalConnectionError | ServiceUnavailableError> {
  const cause = e instanceof Error ? e.message : String(e);
  const tls = config.temporal.connection?.tls;
  const probed = hintFromCause(cause) ?? (await probeTls(config.temporal.address, tls).catch(() => undefined));
  if (probed === NO_ANSWER) return serviceUnavailable('temporal', config.temporal.address, { detail: 'no answer before the deadline', cause: e });
  const hint = probed ?? (tls ? 'check the address, the TLS settings and the API key' : 'check TEMPORAL_ADDRESS; if the server expects TLS set TEMPORAL_TLS=true');
  return new TemporalConnectionError(`cannot connect to ${describe(config)}: ${hint}. (${cause})`, { cause: e });
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

export async function connectTemporal(config: EvolutionConfig): Promise<Connected> {
  await ensureReachable(config, ['temporal']); // one clear line in 2 s, not the SDK's 10 s deadline
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...clientConnectionOptions(config), connectTimeout: connectTimeoutMs(config) });
  } catch (e) {
    throw await explainConnectError(e, config);
  }
  const client = new Client({ connection, namespace: config.temporal.namespace, dataConverter: evolutionDataConverter(config), interceptors: clientInterceptors() });
  return { client, close: () => connection.close() };
}
