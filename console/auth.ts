import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { looksLikeJwt, type JwtVerifier } from './oidc';
import { sameSecret, SESSION_COOKIE, type ConsoleSession, type SessionStore } from './sessions';
import { userForToken, type ConsoleUser, type StoredUser } from './users';

export type ConsoleEnv = { Variables: { user: ConsoleUser; session?: ConsoleSession } };

export interface Authenticator {
  /** A users-file token or, with OIDC configured, a JWT from the issuer. */
  userForToken(token: string): Promise<ConsoleUser | undefined>;
  sessions: SessionStore;
}

export function authenticator(users: readonly StoredUser[], sessions: SessionStore, jwt?: JwtVerifier): Authenticator {
  return {
    sessions,
    async userForToken(token) {
      const trimmed = token.trim();
      if (!trimmed) return undefined;
      if (jwt && looksLikeJwt(trimmed)) return jwt(trimmed);
      return userForToken(users, trimmed);
    },
  };
}

function bearer(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const m = header?.match(/^Bearer\s+(.+)$/i);
  return m?.[1];
}

/** Pages: a session cookie, else to the login page. */
export function requireSession(auth: Authenticator): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const session = auth.sessions.get(getCookie(c, SESSION_COOKIE));
    if (!session) return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
    c.set('session', session);
    c.set('user', session.user);
    await next();
  };
}

/**
 * The JSON API: `Authorization: Bearer <token>`. A browser session may read (GET) too, so
 * the pages can poll; writes through a session cookie would need CSRF, so they need the bearer.
 */
export function requireApiUser(auth: Authenticator): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    const token = bearer(c);
    let user = token ? await auth.userForToken(token) : undefined;
    if (!token && c.req.method === 'GET') user = auth.sessions.get(getCookie(c, SESSION_COOKIE))?.user;
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
