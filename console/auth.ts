import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { clientAddress, limiterKey, type TrustProxy } from './client-address';
import { looksLikeJwt, type JwtVerifier, type VerifiedToken } from './oidc';
import type { CredentialLimiter } from './rate-limit';
import type { SessionRevocations } from './session-revocations';
import { sameSecret, SESSION_COOKIE, type ConsoleSession, type SessionCookies } from './sessions';
import { userForToken, type ConsoleUser, type StoredUser } from './users';

export type ConsoleEnv = { Bindings: Partial<HttpBindings>; Variables: { user: ConsoleUser; session?: ConsoleSession } };

export interface Authenticated extends VerifiedToken {
  source: ConsoleSession['source'];
}

export interface Authenticator {
  /** A users-file token or, with OIDC configured, a JWT from the issuer. */
  authenticate(token: string): Promise<Authenticated | undefined>;
  sessions: SessionCookies;
  revocations: SessionRevocations;
  /** Every credential check (sign-in form and bearer tokens) counts its failures here. */
  limiter: CredentialLimiter;
  /** The limiter's key for this request's client (behind trusted proxies: the forwarded address). */
  clientKey(c: Context<ConsoleEnv>): string;
}

/** Who a token is: a users-file token or, with OIDC configured, a JWT from the issuer (console API and codec server alike). */
export function tokenAuthenticator(users: readonly StoredUser[], jwt?: JwtVerifier): (token: string) => Promise<Authenticated | undefined> {
  return async (token) => {
    const trimmed = token.trim();
    if (!trimmed || trimmed.length > 16 * 1024) return undefined;
    if (jwt && looksLikeJwt(trimmed)) {
      const verified = await jwt(trimmed);
      return verified && { ...verified, source: 'oidc' };
    }
    const user = userForToken(users, trimmed);
    return user && { user, source: 'users-file' };
  };
}

export function authenticator(deps: {
  users: readonly StoredUser[];
  sessions: SessionCookies;
  revocations: SessionRevocations;
  limiter: CredentialLimiter;
  trust: TrustProxy;
  jwt?: JwtVerifier;
}): Authenticator {
  const { users, jwt, trust } = deps;
  return {
    sessions: deps.sessions,
    revocations: deps.revocations,
    limiter: deps.limiter,
    clientKey: (c) => limiterKey(clientAddress(c.env?.incoming, trust)),
    authenticate: tokenAuthenticator(users, jwt),
  };
}

/** The session cookie's attributes; it lives no longer than the session. */
export const cookieOptions = (c: Context, expiresAt?: number) => ({
  httpOnly: true,
  sameSite: 'Strict' as const,
  path: '/',
  secure: new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https',
  ...(expiresAt ? { expires: new Date(expiresAt) } : {}),
});

/** The signed-in session of this request's cookie: sealed by a session key, unexpired, not logged out. */
export async function sessionOf(auth: Authenticator, c: Context<ConsoleEnv>): Promise<ConsoleSession | undefined> {
  const session = await auth.sessions.open(getCookie(c, SESSION_COOKIE));
  if (!session || (await auth.revocations.isRevoked(session.id))) return undefined;
  return session;
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const m = header?.match(/^Bearer\s+(.+)$/i);
  return m?.[1];
}

/**
 * Pages: a session cookie, else to the login page. A page that sets or shows a flash message
 * changes the session, so its cookie is sealed again on the way out.
 */
export function requireSession(auth: Authenticator): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const session = await sessionOf(auth, c);
    if (!session) return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
    c.set('session', session);
    c.set('user', session.user);
    const flash = session.flash;
    await next();
    if (c.get('session') === session && session.flash !== flash) setCookie(c, SESSION_COOKIE, await auth.sessions.seal(session), cookieOptions(c, session.expiresAt));
  };
}

/** 429 with Retry-After once a client's failed credential checks reach the limit. */
export function tooManyAttempts(c: Context, retryAfterSeconds: number) {
  c.header('Retry-After', String(retryAfterSeconds));
  return c.json({ error: 'too_many_attempts', message: `too many failed sign-in attempts from your address; try again in ${retryAfterSeconds} s` }, 429);
}

/**
 * The JSON API: `Authorization: Bearer <token>`, every check counted by the credential
 * limiter. A browser session may read (GET) too, so the pages can poll; writes through a
 * session cookie would need CSRF, so they need the bearer.
 */
export function requireApiUser(auth: Authenticator): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const token = bearer(c);
    let user: ConsoleUser | undefined;
    if (token) {
      const key = auth.clientKey(c);
      const limit = auth.limiter.check(key);
      if (!limit.allowed) return tooManyAttempts(c, limit.retryAfterSeconds);
      user = (await auth.authenticate(token))?.user;
      if (!user) auth.limiter.failed(key);
    } else if (c.req.method === 'GET') {
      user = (await sessionOf(auth, c))?.user;
    }
    if (!user) return c.json({ error: 'unauthorized', message: 'send Authorization: Bearer <token>' }, 401, { 'WWW-Authenticate': 'Bearer' });
    c.set('user', user);
    await next();
  };
}

/** Every form post carries the session's CSRF token in `_csrf`. */
export function requireCsrf(): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const body = await c.req.parseBody();
    const sent = typeof body._csrf === 'string' ? body._csrf : undefined;
    if (!sameSecret(sent, c.get('session')?.csrf)) return c.text('CSRF token missing or wrong: reload the page and try again', 403);
    await next();
  };
}
