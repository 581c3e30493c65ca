import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { cookieOptions, type Authenticator, type ConsoleEnv } from '../auth';
import { newSecret, sameSecret, SESSION_COOKIE, SessionTooLargeError } from '../sessions';
import { layout } from '../views/layout';
import { sameOriginPath } from '../redirect';

/** Before a session exists, the login form's CSRF token is a double-submit cookie. */
const LOGIN_CSRF_COOKIE = 'evolution_login_csrf';

function loginPage(c: Context, opts: { next: string; error?: string; status?: 200 | 400 | 401 | 403 | 429 }) {
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

export function loginRoutes(auth: Authenticator) {
  const app = new Hono<ConsoleEnv>();
  app.get('/login', (c) => loginPage(c, { next: sameOriginPath(c.req.query('next')) }));

  app.post('/login', async (c) => {
    // The limiter answers before the body is even parsed (the body limit came first).
    const key = auth.clientKey(c);
    const limit = auth.limiter.check(key);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return loginPage(c, { next: '/', status: 429, error: `Too many failed sign-in attempts; try again in ${limit.retryAfterSeconds} s.` });
    }
    const body = await c.req.parseBody();
    const next = sameOriginPath(typeof body.next === 'string' ? body.next : undefined);
    if (!sameSecret(typeof body._csrf === 'string' ? body._csrf : undefined, getCookie(c, LOGIN_CSRF_COOKIE))) {
      return loginPage(c, { next, status: 403, error: 'The form expired (CSRF check failed); please sign in again.' });
    }
    const signedIn = await auth.authenticate(typeof body.token === 'string' ? body.token : '');
    if (!signedIn) {
      auth.limiter.failed(key);
      return loginPage(c, { next, status: 401, error: 'Unknown token.' });
    }
    const session = auth.sessions.create(signedIn.user, signedIn.source, signedIn.expiresAt);
    let sealed: string;
    try {
      sealed = await auth.sessions.seal(session);
    } catch (e) {
      if (e instanceof SessionTooLargeError) return loginPage(c, { next, status: 400, error: e.message });
      throw e;
    }
    deleteCookie(c, LOGIN_CSRF_COOKIE, { path: '/' });
    setCookie(c, SESSION_COOKIE, sealed, cookieOptions(c, session.expiresAt));
    return c.redirect(next, 303);
  });
  return app;
}

/**
 * Logging out is a form post (CSRF-checked by the page middleware). The cookie is deleted,
 * and since a copy of it would stay valid until it expires, the session is revoked for every
 * replica too.
 */
export function logoutRoutes(auth: Authenticator) {
  const app = new Hono<ConsoleEnv>();
  app.post('/logout', async (c) => {
    const session = c.get('session');
    if (session) await auth.revocations.revoke(session.id, session.expiresAt);
    c.set('session', undefined);
    deleteCookie(c, SESSION_COOKIE, { path: '/' });
    return c.redirect('/login', 303);
  });
  return app;
}
