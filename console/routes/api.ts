import { Hono } from 'hono';
import { InputError } from '../../core/errors';
import type { ConsoleEnv } from '../auth';
import {
  activityFor,
  decideFor,
  openApprovalsFor,
  experimentFor,
  experimentsFor,
  pendingFor,
  revisionFor,
  skillsFor,
  skillTimelineFor,
  usageFor,
  visibleScopes,
  type ConsoleDeps,
} from '../read-model';
import { activityFilter } from './activity';
import { DecisionFormSchema, revisionVersion } from './revision';
import { pendingVersion } from './pending';

/**
 * The JSON API (bearer token; see docs/console.md). Errors map in the app:
 * 400 bad input, 401 no/unknown token, 403 viewer, 404 outside the user's scopes or
 * absent, 409 already decided.
 */
export function apiRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/api/me', (c) => c.json(c.get('user')));
  app.get('/api/pending', async (c) => c.json({ revisions: await pendingFor(deps, c.get('user')) }));
  app.get('/api/revisions/:id', async (c) => {
    const page = await revisionFor(deps, c.get('user'), c.req.param('id'));
    return c.json(page);
  });
  app.post('/api/revisions/:id/decision', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new InputError('the body must be JSON: {"decision": "approve" | "reject", "comment": "..."}');
    }
    const parsed = DecisionFormSchema.safeParse(body);
    if (!parsed.success) throw new InputError(`invalid decision: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return c.json(await decideFor(deps, c.get('user'), c.req.param('id'), parsed.data));
  });
  app.get('/api/scopes', async (c) => c.json({ scopes: await visibleScopes(deps.store, c.get('user')) }));
  app.get('/api/skills', async (c) => {
    const scope = c.req.query('scope');
    if (!scope) throw new InputError('give ?scope=<scope key> (GET /api/scopes lists yours)');
    return c.json({ scopeKey: scope, skills: await skillsFor(deps, c.get('user'), scope) });
  });
  app.get('/api/skills/:skillId', async (c) => c.json(await skillTimelineFor(deps, c.get('user'), c.req.query('scope') ?? '', c.req.param('skillId'))));
  app.get('/api/usage', async (c) => c.json(await usageFor(deps, c.get('user'), c.req.query('scope') ?? '', c.req.query('skill'))));
  app.get('/api/experiments', async (c) => c.json({ experiments: await experimentsFor(deps, c.get('user')) }));
  app.get('/api/experiments/:id', async (c) => c.json(await experimentFor(deps, c.get('user'), c.req.param('id'))));
  app.get('/api/activity', async (c) =>
    c.json(
      await activityFor(
        deps,
        c.get('user'),
        activityFilter((n) => c.req.query(n)),
      ),
    ),
  );
  return app;
}

/** What the pages poll (session cookie): a version string that changes when the page would. */
export function liveRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/live/pending', async (c) => c.json({ version: pendingVersion(await openApprovalsFor(deps, c.get('user'))) }));
  app.get('/live/revisions/:id', async (c) => c.json({ version: revisionVersion((await revisionFor(deps, c.get('user'), c.req.param('id'))).revision) }));
  return app;
}
