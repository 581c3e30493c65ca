import { InputError } from '../core/errors';
import { loadPayloadKeys, type PayloadKey } from '../codec/keys';
import { readCaBundle } from '../storage/tls';
import { trustedProxies } from './client-address';
import type { OidcSettings } from './oidc';
import { loadUsersFile, type StoredUser } from './users';

export interface ConsoleSettings {
  host: string;
  port: number;
  users: StoredUser[];
  oidc?: OidcSettings;
  /** Seal session cookies (first one) and open them (any); unset: a random key of this process only. */
  sessionKeys?: PayloadKey[];
  /** Proxies whose X-Forwarded-For names the client (for the credential limiter); none by default. */
  trustedProxies?: string[];
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * From the environment: EVOLUTION_CONSOLE_USERS (the users file); for OIDC
 * EVOLUTION_CONSOLE_OIDC_ISSUER + EVOLUTION_CONSOLE_OIDC_JWKS_URL (https) +
 * EVOLUTION_CONSOLE_OIDC_AUDIENCE (+ EVOLUTION_CONSOLE_OIDC_CA_FILE for a private CA). At
 * least one way to sign in is required. EVOLUTION_CONSOLE_SESSION_KEYS seals session
 * cookies (needed for replicas and restarts); EVOLUTION_CONSOLE_TRUSTED_PROXIES names the
 * proxies whose X-Forwarded-For is believed.
 */
export function consoleSettingsFromEnv(env: NodeJS.ProcessEnv, listen: { host?: string; port?: string | number } = {}): ConsoleSettings {
  const host = listen.host ?? env.EVOLUTION_CONSOLE_HOST ?? '127.0.0.1';
  const port = Number(listen.port ?? env.EVOLUTION_CONSOLE_PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InputError(`--port must be a port number (0-65535), got ${JSON.stringify(listen.port ?? env.EVOLUTION_CONSOLE_PORT)}`);
  const users = env.EVOLUTION_CONSOLE_USERS ? loadUsersFile(env.EVOLUTION_CONSOLE_USERS) : [];
  const oidc = oidcFromEnv(env);
  if (users.length === 0 && !oidc) throw new InputError('the console needs users: set EVOLUTION_CONSOLE_USERS to a users file (see docs/console.md), or configure OIDC');
  const sessionKeys = loadPayloadKeys(env.EVOLUTION_CONSOLE_SESSION_KEYS, 'EVOLUTION_CONSOLE_SESSION_KEYS');
  const proxies = list(env.EVOLUTION_CONSOLE_TRUSTED_PROXIES);
  trustedProxies(proxies); // refuses a malformed entry now, naming the variable
  return { host, port, users, oidc, ...(sessionKeys ? { sessionKeys } : {}), ...(proxies.length ? { trustedProxies: proxies } : {}) };
}

/** OIDC sign-in: an issuer, its https JWKS URL and this console's audience, all three or none. */
export function oidcFromEnv(env: NodeJS.ProcessEnv): OidcSettings | undefined {
  const issuer = env.EVOLUTION_CONSOLE_OIDC_ISSUER;
  const jwksUrl = env.EVOLUTION_CONSOLE_OIDC_JWKS_URL;
  const audience = env.EVOLUTION_CONSOLE_OIDC_AUDIENCE;
  if (!issuer && !jwksUrl) return undefined;
  if (!issuer || !jwksUrl) throw new InputError('OIDC sign-in needs both EVOLUTION_CONSOLE_OIDC_ISSUER and EVOLUTION_CONSOLE_OIDC_JWKS_URL');
  if (!URL.canParse(jwksUrl)) throw new InputError(`EVOLUTION_CONSOLE_OIDC_JWKS_URL is not a URL: ${jwksUrl}`);
  if (new URL(jwksUrl).protocol !== 'https:')
    throw new InputError(`EVOLUTION_CONSOLE_OIDC_JWKS_URL must be an https URL (the keys that sign every identity come from it), got ${jwksUrl}`);
  if (!audience)
    throw new InputError(
      'OIDC sign-in needs EVOLUTION_CONSOLE_OIDC_AUDIENCE: the audience (aud) tokens for this console carry, so a token issued for another application is refused',
    );
  const caFile = env.EVOLUTION_CONSOLE_OIDC_CA_FILE;
  return { issuer, jwksUrl, audience, ...(caFile ? { ca: readCaBundle('EVOLUTION_CONSOLE_OIDC_CA_FILE', caFile) } : {}) };
}
