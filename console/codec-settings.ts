import { InputError } from '../core/errors';
import { trustedProxies } from './client-address';
import type { CodecServerOptions } from './codec-server';
import { oidcFromEnv } from './settings';
import { loadUsersFile, type StoredUser } from './users';
import type { OidcSettings } from './oidc';

export interface CodecServerSettings extends Pick<CodecServerOptions, 'host' | 'port' | 'corsOrigins' | 'allowedHosts' | 'encode'> {
  users: StoredUser[];
  oidc?: OidcSettings;
  trustedProxies: string[];
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * The codec server's settings: who may call it comes from the console's (EVOLUTION_CONSOLE_USERS,
 * the OIDC variables, EVOLUTION_CONSOLE_TRUSTED_PROXIES); EVOLUTION_CODEC_CORS_ORIGINS (the
 * Temporal UI's origin), EVOLUTION_CODEC_ALLOWED_HOSTS (Host values it answers; required when
 * it listens beyond loopback) and EVOLUTION_CODEC_ENCODE (`true` serves /encode) are its own.
 * Flags win over the environment.
 */
export function codecServerSettingsFromEnv(
  env: NodeJS.ProcessEnv,
  flags: { host?: string; port?: number; corsOrigins?: string; allowedHosts?: string; encode?: boolean } = {},
): CodecServerSettings {
  const host = flags.host ?? env.EVOLUTION_CODEC_HOST ?? '127.0.0.1';
  const port = flags.port ?? Number(env.EVOLUTION_CODEC_PORT ?? 8888);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InputError(`the codec server's port must be 0-65535, got ${port}`);
  const corsOrigins = list(flags.corsOrigins ?? env.EVOLUTION_CODEC_CORS_ORIGINS);
  for (const origin of corsOrigins) {
    if (origin === '*' || !URL.canParse(origin) || new URL(origin).origin !== origin)
      throw new InputError(
        `EVOLUTION_CODEC_CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path; "*" is never allowed): the Temporal UI's URL, e.g. http://localhost:8233`,
      );
  }
  const allowedHosts = list(flags.allowedHosts ?? env.EVOLUTION_CODEC_ALLOWED_HOSTS).map((h) => h.toLowerCase());
  if (allowedHosts.length === 0 && !LOOPBACK.has(host))
    throw new InputError(
      `the codec server listens on ${host}: set EVOLUTION_CODEC_ALLOWED_HOSTS to the host:port names clients reach it by (a Host header check against DNS rebinding)`,
    );
  const encodeSetting = env.EVOLUTION_CODEC_ENCODE?.trim().toLowerCase();
  if (encodeSetting && !['true', 'false'].includes(encodeSetting))
    throw new InputError(`EVOLUTION_CODEC_ENCODE must be true or false, got ${JSON.stringify(env.EVOLUTION_CODEC_ENCODE)}`);
  const encode = flags.encode ?? encodeSetting === 'true';
  const users = env.EVOLUTION_CONSOLE_USERS ? loadUsersFile(env.EVOLUTION_CONSOLE_USERS) : [];
  const oidc = oidcFromEnv(env);
  if (users.length === 0 && !oidc)
    throw new InputError('the codec server authenticates like the console: set EVOLUTION_CONSOLE_USERS (users file) or the EVOLUTION_CONSOLE_OIDC_* variables');
  const proxies = list(env.EVOLUTION_CONSOLE_TRUSTED_PROXIES);
  trustedProxies(proxies);
  return { host, port, corsOrigins, allowedHosts, encode, users, oidc, trustedProxies: proxies };
}
