"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createConsoleApp = createConsoleApp;
const hono_1 = require("hono");
const html_1 = require("hono/html");
const errors_1 = require("../errors");
const auth_1 = require("./auth");
const errors_2 = require("./errors");
const oidc_1 = require("./oidc");
const rate_limit_1 = require("./rate-limit");
const activity_1 = require("./routes/activity");
const api_1 = require("./routes/api");
const experiments_1 = require("./routes/experiments");
const login_1 = require("./routes/login");
const pending_1 = require("./routes/pending");
const revision_1 = require("./routes/revision");
const skills_1 = require("./routes/skills");
const sessions_1 = require("./sessions");
const layout_1 = require("./views/layout");
const live_script_1 = require("./views/live-script");
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
function statusOf(e) {
    if (e instanceof errors_1.InputError)
        return 400;
    if (e instanceof errors_2.ForbiddenError)
        return 403;
    if (e instanceof errors_1.NotFoundError)
        return 404;
    if (e instanceof errors_1.StateError)
        return 409;
    return 500;
}
/** The console as a Hono app (no socket): pages, the JSON API, sign-in. */
function createConsoleApp(deps, settings, opts = {}) {
    const jwt = opts.jwt ?? (settings.oidc ? (0, oidc_1.jwtVerifier)(settings.oidc) : undefined);
    const auth = (0, auth_1.authenticator)(settings.users, new sessions_1.SessionStore(), jwt);
    const app = new hono_1.Hono();
    app.use(async (c, next) => {
        await next();
        c.header('Content-Security-Policy', CSP);
        c.header('X-Content-Type-Options', 'nosniff');
        c.header('Referrer-Policy', 'no-referrer');
        c.header('Cache-Control', 'no-store');
    });
    app.onError((e, c) => {
        const status = statusOf(e);
        if (status === 500)
            console.error(`console: ${c.req.method} ${c.req.path}: ${e.stack ?? e}`);
        const message = status === 500 ? 'internal error (see the console log)' : e.message;
        if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/live/'))
            return c.json({ error: e.name, message }, status);
        return c.html((0, layout_1.layout)({ title: status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 409 ? 'Conflict' : 'Error', session: c.get('session') }, (0, html_1.html) `<p>${message}</p>`), status);
    });
    app.get('/healthz', (c) => c.text('ok'));
    app.get('/favicon.ico', (c) => c.body(null, 204));
    app.get('/static/live.js', (c) => c.body(live_script_1.LIVE_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
    app.route('/', (0, login_1.loginRoutes)(auth, new rate_limit_1.LoginRateLimiter(opts.loginLimit)));
    app.use('/api/*', (0, auth_1.requireApiUser)(auth));
    app.route('/', (0, api_1.apiRoutes)(deps));
    app.use('*', (0, auth_1.requireSession)(auth));
    app.use('*', (0, auth_1.requireCsrf)());
    app.route('/', (0, api_1.liveRoutes)(deps));
    app.route('/', (0, login_1.logoutRoutes)(auth));
    app.route('/', (0, pending_1.pendingRoutes)(deps));
    app.route('/', (0, revision_1.revisionRoutes)(deps));
    app.route('/', (0, skills_1.skillRoutes)(deps));
    app.route('/', (0, experiments_1.experimentRoutes)(deps));
    app.route('/', (0, activity_1.activityRoutes)(deps));
    return app;
}
//# sourceMappingURL=app.js.map