import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { InputError, NotFoundError, ServiceUnavailableError, StateError } from '../core/errors';
import { unreachableServiceOf } from '../client/service-errors';
import { randomBytes } from 'node:crypto';
import { authenticator, requireApiUser, requireCsrf, requireSession, type ConsoleEnv } from './auth';
import { trustedProxies } from './client-address';
import { clientDeadline, storageDeadline } from './client-deadline';
import { ForbiddenError } from './errors';
import { jwtVerifier, type JwtVerifier } from './oidc';
import { wellFormedQuery } from './query';
import { CredentialLimiter } from './rate-limit';
import type { ConsoleDeps } from './read-model';
import { activityRoutes } from './routes/activity';
import { apiRoutes, liveRoutes } from './routes/api';
import { experimentRoutes } from './routes/experiments';
import { jobApiRoutes, jobRoutes } from './routes/jobs';
import { evaluationRoutes } from './routes/evaluations';
import { loginRoutes, logoutRoutes } from './routes/login';
import { pendingRoutes } from './routes/pending';
import { revisionRoutes } from './routes/revision';
import { rolloutApiRoutes, rolloutPageRoutes } from './routes/rollout';
import { skillRoutes } from './routes/skills';
import { SessionRevocations } from './session-revocations';
import { SessionCookies } from './sessions';
import type { ConsoleSettings } from './settings';
import { layout } from './views/layout';
import { LIVE_SCRIPT } from './views/live-script';

export interface ConsoleAppOptions {
  /** Defaults: 10 failed credential checks (form or bearer) per client per minute. */
  credentialLimit?: { max: number; windowMs: number };
  jwt?: JwtVerifier;
}

const CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Request bodies are refused past these sizes before anything reads them (413). */
export const BODY_LIMITS = { form: 64 * 1024, api: 1024 * 1024 } as const;

function bodyLimits(): MiddlewareHandler<ConsoleEnv> {
  const limited = (kind: keyof typeof BODY_LIMITS) =>
    bodyLimit({
      maxSize: BODY_LIMITS[kind],
      onError: (c) => {
        const message = `the request body is larger than ${kind === 'api' ? '1 MB' : '64 KB'}`;
        return kind === 'api' ? c.json({ error: 'PayloadTooLarge', message }, 413) : c.text(message, 413);
      },
    });
  const api = limited('api');
  const form = limited('form');
  return (c, next) => (c.req.path.startsWith('/api/') ? api(c, next) : form(c, next));
}

function statusOf(e: unknown): 400 | 403 | 404 | 409 | 500 | 503 {
  if (e instanceof InputError) return 400;
  if (e instanceof ForbiddenError) return 403;
  if (e instanceof NotFoundError) return 404;
  if (e instanceof StateError) return 409;
  if (e instanceof ServiceUnavailableError) return 503;
  return 500;
}

/** The console as a Hono app (no socket): pages, the JSON API, sign-in. */
export function createConsoleApp(deps: ConsoleDeps, settings: Pick<ConsoleSettings, 'users' | 'oidc' | 'sessionKeys' | 'trustedProxies'>, opts: ConsoleAppOptions = {}) {
  const jwt = opts.jwt ?? (settings.oidc ? jwtVerifier(settings.oidc) : undefined);
  const usersFileUser = (name: string) => {
    const u = settings.users.find((x) => x.name === name);
    return u && { name: u.name, role: u.role, scopes: u.scopes };
  };
  // Without configured keys, one of this process: its sessions end with it and no other replica reads them.
  const sessionKeys = settings.sessionKeys ?? [{ id: 'process', key: randomBytes(32) }];
  const auth = authenticator({
    users: settings.users,
    sessions: new SessionCookies(sessionKeys, usersFileUser),
    revocations: new SessionRevocations(deps.store.objects),
    limiter: new CredentialLimiter(opts.credentialLimit),
    trust: trustedProxies(settings.trustedProxies ?? []),
    ...(jwt ? { jwt } : {}),
  });
  const app = new Hono<ConsoleEnv>();

  app.use(async (c, next) => {
    await next();
    c.header('Content-Security-Policy', CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
  });

  app.onError((thrown, c: Context<ConsoleEnv>) => {
    // Temporal or S3 not answering: the platform contract's one line naming the service.
    const e = unreachableServiceOf(thrown, deps.client) ?? thrown;
    const status = statusOf(e);
    if (status === 500) console.error(`console: ${c.req.method} ${c.req.path}: ${(e as Error).stack ?? e}`);
    const message = status === 500 ? 'internal error (see the console log)' : e.message;
    if (c.req.path.startsWith('/api/') || c.req.path.startsWith('/live/')) return c.json({ error: e.name, message }, status);
    return c.html(
      layout(
        {
          title: status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 409 ? 'Conflict' : status === 503 ? 'Unavailable' : 'Error',
          session: c.get('session'),
        },
        html`<p>${message}</p>`,
      ),
      status,
    );
  });

  app.use(bodyLimits());
  app.use(storageDeadline(deps));
  app.use(wellFormedQuery());

  app.get('/healthz', (c) => c.text('ok'));
  app.get('/favicon.ico', (c) => c.body(null, 204));
  app.get('/static/live.js', (c) => c.body(LIVE_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.route('/', loginRoutes(auth));

  app.use('/api/*', requireApiUser(auth));
  app.use('/api/*', clientDeadline(deps));
  app.route('/', apiRoutes(deps));
  app.route('/', jobApiRoutes(deps));
  app.route('/', rolloutApiRoutes(deps));

  app.use('*', requireSession(auth));
  app.use('*', requireCsrf());
  app.use('*', clientDeadline(deps));
  app.route('/', liveRoutes(deps));
  app.route('/', logoutRoutes(auth));
  app.route('/', pendingRoutes(deps));
  app.route('/', revisionRoutes(deps));
  app.route('/', rolloutPageRoutes(deps));
  app.route('/', skillRoutes(deps));
  app.route('/', experimentRoutes(deps));
  app.route('/', evaluationRoutes(deps));
  app.route('/', activityRoutes(deps));
  app.route('/', jobRoutes(deps));
  return app;
}
