"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loginRoutes = loginRoutes;
exports.logoutRoutes = logoutRoutes;
const conninfo_1 = require("@hono/node-server/conninfo");
const hono_1 = require("hono");
const cookie_1 = require("hono/cookie");
const html_1 = require("hono/html");
const sessions_1 = require("../sessions");
const layout_1 = require("../views/layout");
/** Before a session exists, the login form's CSRF token is a double-submit cookie. */
const LOGIN_CSRF_COOKIE = 'evolution_login_csrf';
const cookieOptions = (c) => ({
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https',
});
/** Only a path on this site: never an absolute or protocol-relative URL (open redirect). */
function safeNext(next) {
    return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
function clientAddress(c) {
    try {
        return (0, conninfo_1.getConnInfo)(c).remote.address ?? 'unknown';
    }
    catch {
        return 'unknown';
    }
}
function loginPage(c, opts) {
    // Reused while it lives: a second tab (or a favicon request bounced to /login) must not invalidate the first form.
    const csrf = (0, cookie_1.getCookie)(c, LOGIN_CSRF_COOKIE) || (0, sessions_1.newSecret)();
    (0, cookie_1.setCookie)(c, LOGIN_CSRF_COOKIE, csrf, { ...cookieOptions(c), maxAge: 3600 });
    return c.html((0, layout_1.layout)({ title: 'Sign in' }, (0, html_1.html) `${opts.error ? (0, html_1.html) `<div class="flash" role="alert">${opts.error}</div>` : ''}
<form method="post" action="/login" class="card">
<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${opts.next}">
<label>Access token (or an OIDC ID token)<br><input type="password" name="token" autocomplete="current-password" size="60" autofocus></label>
<p><button type="submit">Sign in</button></p></form>
<p class="muted">Tokens are issued by whoever runs the console (users file EVOLUTION_CONSOLE_USERS); the demo prints one.</p>`), opts.status ?? 200);
}
function loginRoutes(auth, limiter) {
    const app = new hono_1.Hono();
    app.get('/login', (c) => loginPage(c, { next: safeNext(c.req.query('next')) }));
    app.post('/login', async (c) => {
        const body = await c.req.parseBody();
        const next = safeNext(typeof body.next === 'string' ? body.next : undefined);
        const address = clientAddress(c);
        const limit = limiter.attempt(address);
        if (!limit.allowed) {
            c.header('Retry-After', String(limit.retryAfterSeconds));
            return loginPage(c, { next, status: 429, error: `Too many sign-in attempts; try again in ${limit.retryAfterSeconds} s.` });
        }
        if (!(0, sessions_1.sameSecret)(typeof body._csrf === 'string' ? body._csrf : undefined, (0, cookie_1.getCookie)(c, LOGIN_CSRF_COOKIE))) {
            return loginPage(c, { next, status: 403, error: 'The form expired (CSRF check failed); please sign in again.' });
        }
        const user = await auth.userForToken(typeof body.token === 'string' ? body.token : '');
        if (!user)
            return loginPage(c, { next, status: 401, error: 'Unknown token.' });
        limiter.succeeded(address);
        const session = auth.sessions.create(user);
        (0, cookie_1.deleteCookie)(c, LOGIN_CSRF_COOKIE, { path: '/' });
        (0, cookie_1.setCookie)(c, sessions_1.SESSION_COOKIE, session.id, cookieOptions(c));
        return c.redirect(next, 303);
    });
    return app;
}
/** Logging out is a form post (CSRF-checked by the page middleware). */
function logoutRoutes(auth) {
    const app = new hono_1.Hono();
    app.post('/logout', (c) => {
        auth.sessions.delete(c.get('session')?.id);
        (0, cookie_1.deleteCookie)(c, sessions_1.SESSION_COOKIE, { path: '/' });
        return c.redirect('/login', 303);
    });
    return app;
}
//# sourceMappingURL=login.js.map