import { existsSync, readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { loadClientConfigProfile, type ClientConfigProfile, type ConfigDataSource } from '@temporalio/envconfig';
import type { TLSConfig } from '@temporalio/client';
import { ConfigError, type EvolutionConfig, type TemporalConnectionSettings } from '../core';
import { CLIENT_CHANNEL_ARGS } from '../core/client-channel';

/**
 * Temporal connections the Temporal way: a profile from a TOML config file
 * (TEMPORAL_CONFIG_FILE, default ~/.config/temporalio/temporal.toml; TEMPORAL_PROFILE picks
 * one) overridden by the standard variables (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE,
 * TEMPORAL_API_KEY, TEMPORAL_TLS, TEMPORAL_TLS_SERVER_CA_CERT_PATH, TEMPORAL_TLS_SERVER_NAME,
 * TEMPORAL_TLS_CLIENT_CERT_PATH, TEMPORAL_TLS_CLIENT_KEY_PATH, TEMPORAL_GRPC_META_*), all
 * through @temporalio/envconfig. Certificates and keys are read and checked here, once, so
 * a missing file or a bad certificate is reported by name before any gRPC call.
 */
export interface ResolvedTemporalProfile {
  address?: string;
  namespace?: string;
  connection: TemporalConnectionSettings;
}

/** The variable (or profile key) a TLS file came from, for error messages. */
const SOURCES = {
  serverCACert: { env: 'TEMPORAL_TLS_SERVER_CA_CERT', key: 'server_ca_cert' },
  clientCert: { env: 'TEMPORAL_TLS_CLIENT_CERT', key: 'client_cert' },
  clientKey: { env: 'TEMPORAL_TLS_CLIENT_KEY', key: 'client_key' },
} as const;

type TlsFile = keyof typeof SOURCES;

function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''));
}

function label(file: TlsFile, source: ConfigDataSource, env: Record<string, string>): string {
  const s = SOURCES[file];
  const kind = 'path' in source ? 'PATH' : 'DATA';
  const name = env[`${s.env}_${kind}`] !== undefined ? `${s.env}_${kind}` : `tls.${s.key}_${kind.toLowerCase()} of the Temporal config profile`;
  return 'path' in source ? `${name} (${source.path})` : name;
}

function read(file: TlsFile, source: ConfigDataSource, env: Record<string, string>): Buffer {
  if ('data' in source) return Buffer.from(source.data);
  try {
    return readFileSync(source.path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(`${label(file, source, env)}: ${code === 'ENOENT' ? 'file not found' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
  }
}

function checkCertificate(file: TlsFile, pem: Buffer, source: ConfigDataSource, env: Record<string, string>): void {
  try {
    new X509Certificate(pem);
  } catch (e) {
    throw new ConfigError(`${label(file, source, env)}: not a PEM certificate (${(e as Error).message})`);
  }
}

function tlsSettings(profile: ClientConfigProfile, env: Record<string, string>): TemporalConnectionSettings['tls'] {
  const tls = profile.tls;
  if (tls === undefined) return profile.apiKey !== undefined ? true : undefined;
  if (tls.disabled === true) return false;
  const ca = tls.serverCACert && read('serverCACert', tls.serverCACert, env);
  if (ca && tls.serverCACert) checkCertificate('serverCACert', ca, tls.serverCACert, env);
  const crt = tls.clientCert && read('clientCert', tls.clientCert, env);
  if (crt && tls.clientCert) checkCertificate('clientCert', crt, tls.clientCert, env);
  const key = tls.clientKey && read('clientKey', tls.clientKey, env);
  if (key && tls.clientKey) {
    try {
      createPrivateKey(key);
    } catch (e) {
      throw new ConfigError(`${label('clientKey', tls.clientKey, env)}: not a PEM private key (${(e as Error).message})`);
    }
  }
  if (!!crt !== !!key) {
    throw new ConfigError(`mutual TLS needs both a client certificate and its key: set ${crt ? 'TEMPORAL_TLS_CLIENT_KEY_PATH' : 'TEMPORAL_TLS_CLIENT_CERT_PATH'} too`);
  }
  if (crt && key && tls.clientKey) {
    try {
      createSecureContext({ cert: crt, key });
    } catch (e) {
      throw new ConfigError(`${label('clientKey', tls.clientKey, env)} does not belong to the client certificate (${(e as Error).message})`);
    }
  }
  return {
    ...(tls.serverName ? { serverNameOverride: tls.serverName } : {}),
    ...(ca ? { serverRootCACertificate: ca } : {}),
    ...(crt && key ? { clientCertPair: { crt, key } } : {}),
  };
}

/** Reads the Temporal profile + TEMPORAL_* variables (empty values count as unset). */
export function resolveTemporalProfile(rawEnv: Record<string, string | undefined>): ResolvedTemporalProfile {
  const env = withoutEmpty(rawEnv);
  if (env.TEMPORAL_CONFIG_FILE && !existsSync(env.TEMPORAL_CONFIG_FILE)) throw new ConfigError(`TEMPORAL_CONFIG_FILE (${env.TEMPORAL_CONFIG_FILE}): file not found`);
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({ overrideEnvVars: env });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT' && env.TEMPORAL_CONFIG_FILE) throw new ConfigError(`TEMPORAL_CONFIG_FILE (${env.TEMPORAL_CONFIG_FILE}): file not found`);
    throw new ConfigError(`Temporal config profile${env.TEMPORAL_PROFILE ? ` "${env.TEMPORAL_PROFILE}"` : ''}: ${err.message}`);
  }
  const tls = tlsSettings(profile, env);
  const connection: TemporalConnectionSettings = {
    ...(profile.apiKey ? { apiKey: profile.apiKey } : {}),
    ...(tls !== undefined ? { tls } : {}),
    ...(profile.grpcMeta && Object.keys(profile.grpcMeta).length ? { metadata: profile.grpcMeta } : {}),
  };
  return { address: profile.address, namespace: profile.namespace, connection };
}

/** Options for `Connection.connect` (the application's clients): the shared ones, and how the channel reconnects. */
export function clientConnectionOptions(config: EvolutionConfig): ReturnType<typeof temporalConnectionOptions> & { channelArgs: Record<string, number> } {
  return { ...temporalConnectionOptions(config), channelArgs: { ...CLIENT_CHANNEL_ARGS } };
}

/** Options for `Connection.connect` and `NativeConnection.connect` (same shape). */
export function temporalConnectionOptions(config: EvolutionConfig): { address: string; apiKey?: string; tls?: TLSConfig | boolean; metadata?: Record<string, string> } {
  const c = config.temporal.connection ?? {};
  const tls = c.tls;
  return {
    address: config.temporal.address,
    ...(c.apiKey ? { apiKey: c.apiKey } : {}),
    ...(c.metadata ? { metadata: c.metadata } : {}),
    ...(tls === undefined
      ? {}
      : typeof tls === 'boolean'
        ? { tls }
        : {
            tls: {
              ...(tls.serverNameOverride ? { serverNameOverride: tls.serverNameOverride } : {}),
              ...(tls.serverRootCACertificate ? { serverRootCACertificate: Buffer.from(tls.serverRootCACertificate) } : {}),
              ...(tls.clientCertPair ? { clientCertPair: { crt: Buffer.from(tls.clientCertPair.crt), key: Buffer.from(tls.clientCertPair.key) } } : {}),
            },
          }),
  };
}
