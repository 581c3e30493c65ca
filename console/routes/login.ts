import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import type { Authenticator, ConsoleEnv } from '../auth';
import type { LoginRateLimiter } from '../rate-limit';
import { newSecret, sameSecret, SESSION_COOKIE } from '../sessions';
import { layout } from '../views/layout';
import { sameOriginPath } from '../redirect';

/** Before a session exists, the login form's CSRF token is a double-submit cookie. */
const LOGIN_CSRF_COOKIE = 'evolution_login_csrf';

const cookieOptions = (c: Context) => ({
  httpOnly: true,
  sameSite: 'Strict' as const,
  path: '/',
  secure: new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https',
});

function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function loginPage(c: Context, opts: { next: string; error?: string; status?: 200 | 401 | 403 | 429 }) {
  // Reused while it lives: a second tab (or a favicon request bounced to /login) must not invalidate the first form.
  const csrf = getCookie(c, LOGIN_CSRF_COOKIE) || newSecret();
  setCookie(c, LOGIN_CSRF_COOKIE, csrf, { ...cookieOptions(c), maxAge: 3600 });
  return c.html(
    layout(
      { title: 'Sign in' },
      html`${opts.error ? html`<div class="flash" role="alert">${opts.error}</div>` : ''}
        <form method="post" action="/login" class="card">
          <input type="hidden" name="_csrf" value="${csrf}" /><input type="hidden" name="next" value="${opts.next}" />
          <label>Access token (or an OIDC ID token)<br /><input type="password" name="token" autocomplete="current-password" size="60" autofocus /></label>
          <p><button type="submit">Sign in</button></p>
        </form>
        <p class="muted">Tokens are issued by whoever runs the console (users file EVOLUTION_CONSOLE_USERS); the demo prints one.</p>`,
    ),
    opts.status ?? 200,
  );
}

export function loginRoutes(auth: Authenticator, limiter: LoginRateLimiter) {
  const app = new Hono<ConsoleEnv>();
  app.get('/login', (c) => loginPage(c, { next: sameOriginPath(c.req.query('next')) }));

  app.post('/login', async (c) => {
    const body = await c.req.parseBody();
    const next = sameOriginPath(typeof body.next === 'string' ? body.next : undefined);
    const address = clientAddress(c);
    const limit = limiter.attempt(address);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return loginPage(c, { next, status: 429, error: `Too many sign-in attempts; try again in ${limit.retryAfterSeconds} s.` });
    }
    if (!sameSecret(typeof body._csrf === 'string' ? body._csrf : undefined, getCookie(c, LOGIN_CSRF_COOKIE))) {
      return loginPage(c, { next, status: 403, error: 'The form expired (CSRF check failed); please sign in again.' });
    }
    const user = await auth.userForToken(typeof body.token === 'string' ? body.token : '');
    if (!user) return loginPage(c, { next, status: 401, error: 'Unknown token.' });
    limiter.succeeded(address);
    const session = auth.sessions.create(user);
    deleteCookie(c, LOGIN_CSRF_COOKIE, { path: '/' });
    setCookie(c, SESSION_COOKIE, session.id, cookieOptions(c));
    return c.redirect(next, 303);
  });
  return app;
}

/** Logging out is a form post (CSRF-checked by the page middleware). */
export function logoutRoutes(auth: Authenticator) {
  const app = new Hono<ConsoleEnv>();
  app.post('/logout', (c) => {
    auth.sessions.delete(c.get('session')?.id);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/login', 303);
  });
  return app;
}
