import { InputError } from '../core/errors';
import type { OidcSettings } from './oidc';
import { loadUsersFile, type StoredUser } from './users';

export interface ConsoleSettings {
  host: string;
  port: number;
  users: StoredUser[];
  oidc?: OidcSettings;
}

/**
 * From the environment: EVOLUTION_CONSOLE_USERS (the users file), and for OIDC
 * EVOLUTION_CONSOLE_OIDC_ISSUER + EVOLUTION_CONSOLE_OIDC_JWKS_URL (+ optional
 * EVOLUTION_CONSOLE_OIDC_AUDIENCE). At least one way to sign in is required.
 */
export function consoleSettingsFromEnv(env: NodeJS.ProcessEnv, listen: { host?: string; port?: string | number } = {}): ConsoleSettings {
  const host = listen.host ?? env.EVOLUTION_CONSOLE_HOST ?? '127.0.0.1';
  const port = Number(listen.port ?? env.EVOLUTION_CONSOLE_PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InputError(`--port must be a port number (0-65535), got ${JSON.stringify(listen.port ?? env.EVOLUTION_CONSOLE_PORT)}`);
  const users = env.EVOLUTION_CONSOLE_USERS ? loadUsersFile(env.EVOLUTION_CONSOLE_USERS) : [];
  const issuer = env.EVOLUTION_CONSOLE_OIDC_ISSUER;
  const jwksUrl = env.EVOLUTION_CONSOLE_OIDC_JWKS_URL;
  if (Boolean(issuer) !== Boolean(jwksUrl)) throw new InputError('OIDC sign-in needs both EVOLUTION_CONSOLE_OIDC_ISSUER and EVOLUTION_CONSOLE_OIDC_JWKS_URL');
  if (jwksUrl && !URL.canParse(jwksUrl)) throw new InputError(`EVOLUTION_CONSOLE_OIDC_JWKS_URL is not a URL: ${jwksUrl}`);
  const oidc = issuer && jwksUrl ? { issuer, jwksUrl, audience: env.EVOLUTION_CONSOLE_OIDC_AUDIENCE || undefined } : undefined;
  if (users.length === 0 && !oidc) throw new InputError('the console needs users: set EVOLUTION_CONSOLE_USERS to a users file (see README "Approver console"), or configure OIDC');
  return { host, port, users, oidc };
}
