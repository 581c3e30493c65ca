"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.authenticator = authenticator;
exports.requireSession = requireSession;
exports.requireApiUser = requireApiUser;
exports.requireCsrf = requireCsrf;
const cookie_1 = require("hono/cookie");
const oidc_1 = require("./oidc");
const sessions_1 = require("./sessions");
const users_1 = require("./users");
function authenticator(users, sessions, jwt) {
    return {
        sessions,
        async userForToken(token) {
            const trimmed = token.trim();
            if (!trimmed)
                return undefined;
            if (jwt && (0, oidc_1.looksLikeJwt)(trimmed))
                return jwt(trimmed);
            return (0, users_1.userForToken)(users, trimmed);
        },
    };
}
function bearer(c) {
    const header = c.req.header('authorization');
    const m = header?.match(/^Bearer\s+(.+)$/i);
    return m?.[1];
}
/** Pages: a session cookie, else to the login page. */
function requireSession(auth) {
    return async (c, next) => {
        const session = auth.sessions.get((0, cookie_1.getCookie)(c, sessions_1.SESSION_COOKIE));
        if (!session)
            return c.redirect(`/login?next=${encodeURIComponent(c.req.path)}`, 303);
        c.set('session', session);
        c.set('user', session.user);
        await next();
    };
}
/**
 * The JSON API: `Authorization: Bearer <token>`. A browser session may read (GET) too, so
 * the pages can poll; writes through a session cookie would need CSRF, so they need the bearer.
 */
function requireApiUser(auth) {
    return async (c, next) => {
        const token = bearer(c);
        let user = token ? await auth.userForToken(token) : undefined;
        if (!token && c.req.method === 'GET')
            user = auth.sessions.get((0, cookie_1.getCookie)(c, sessions_1.SESSION_COOKIE))?.user;
        if (!user)
            return c.json({ error: 'unauthorized', message: 'send Authorization: Bearer <token>' }, 401, { 'WWW-Authenticate': 'Bearer' });
        c.set('user', user);
        await next();
    };
}
/** Every form post carries the session's CSRF token in `_csrf`. */
function requireCsrf() {
    return async (c, next) => {
        if (c.req.method !== 'POST')
            return next();
        const body = await c.req.parseBody();
        const sent = typeof body._csrf === 'string' ? body._csrf : undefined;
        if (!(0, sessions_1.sameSecret)(sent, c.get('session')?.csrf))
            return c.text('CSRF token missing or wrong: reload the page and try again', 403);
        await next();
    };
}
//# sourceMappingURL=auth.js.map