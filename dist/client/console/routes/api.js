"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.apiRoutes = apiRoutes;
exports.liveRoutes = liveRoutes;
const hono_1 = require("hono");
const errors_1 = require("../../errors");
const read_model_1 = require("../read-model");
const activity_1 = require("./activity");
const revision_1 = require("./revision");
const pending_1 = require("./pending");
/**
 * The JSON API (bearer token; see README "Approver console"). Errors map in the app:
 * 400 bad input, 401 no/unknown token, 403 viewer, 404 outside the user's scopes or
 * absent, 409 already decided.
 */
function apiRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/api/me', (c) => c.json(c.get('user')));
    app.get('/api/pending', async (c) => c.json({ revisions: await (0, read_model_1.pendingFor)(deps, c.get('user')) }));
    app.get('/api/revisions/:id', async (c) => {
        const page = await (0, read_model_1.revisionFor)(deps, c.get('user'), c.req.param('id'));
        return c.json(page);
    });
    app.post('/api/revisions/:id/decision', async (c) => {
        let body;
        try {
            body = await c.req.json();
        }
        catch {
            throw new errors_1.InputError('the body must be JSON: {"decision": "approve" | "reject", "comment": "..."}');
        }
        const parsed = revision_1.DecisionFormSchema.safeParse(body);
        if (!parsed.success)
            throw new errors_1.InputError(`invalid decision: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
        return c.json(await (0, read_model_1.decideFor)(deps, c.get('user'), c.req.param('id'), parsed.data));
    });
    app.get('/api/scopes', async (c) => c.json({ scopes: await (0, read_model_1.visibleScopes)(deps.store, c.get('user')) }));
    app.get('/api/skills', async (c) => {
        const scope = c.req.query('scope');
        if (!scope)
            throw new errors_1.InputError('give ?scope=<scope key> (GET /api/scopes lists yours)');
        return c.json({ scopeKey: scope, skills: await (0, read_model_1.skillsFor)(deps, c.get('user'), scope) });
    });
    app.get('/api/skills/:skillId', async (c) => c.json(await (0, read_model_1.skillTimelineFor)(deps, c.get('user'), c.req.query('scope') ?? '', c.req.param('skillId'))));
    app.get('/api/experiments', async (c) => c.json({ experiments: await (0, read_model_1.experimentsFor)(deps, c.get('user')) }));
    app.get('/api/experiments/:id', async (c) => c.json(await (0, read_model_1.experimentFor)(deps, c.get('user'), c.req.param('id'))));
    app.get('/api/activity', async (c) => c.json(await (0, read_model_1.activityFor)(deps, c.get('user'), (0, activity_1.activityFilter)((n) => c.req.query(n)))));
    return app;
}
/** What the pages poll (session cookie): a version string that changes when the page would. */
function liveRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/live/pending', async (c) => c.json({ version: (0, pending_1.pendingVersion)(await (0, read_model_1.pendingFor)(deps, c.get('user'), { deadlines: false })) }));
    app.get('/live/revisions/:id', async (c) => c.json({ version: (0, revision_1.revisionVersion)((await (0, read_model_1.revisionFor)(deps, c.get('user'), c.req.param('id'))).revision) }));
    return app;
}
//# sourceMappingURL=api.js.map