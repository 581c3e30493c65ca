"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.skillRoutes = skillRoutes;
const hono_1 = require("hono");
const html_1 = require("hono/html");
const errors_1 = require("../../errors");
const read_model_1 = require("../read-model");
const users_1 = require("../users");
const revision_1 = require("./revision");
const layout_1 = require("../views/layout");
function skillRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/skills', async (c) => {
        const user = c.get('user');
        const scopes = await (0, read_model_1.visibleScopes)(deps.store, user);
        const chosen = c.req.query('scope') ?? scopes[0];
        const skills = chosen ? await (0, read_model_1.skillsFor)(deps, user, chosen) : [];
        const picker = (0, html_1.html) `<form method="get" action="/skills"><label>Scope <select name="scope">${scopes.map((s) => (0, html_1.html) `<option value="${s}"${s === chosen ? ' selected' : ''}>${s}</option>`)}</select></label> <button>Show</button></form>`;
        const rows = skills.map((s) => (0, html_1.html) `<tr><td><a href="/skills/${encodeURIComponent(s.skillId)}?${(0, layout_1.scopeQuery)(chosen)}">${s.name}</a></td><td>${s.description}</td><td class="muted">${s.revisionId}</td></tr>`);
        return c.html((0, layout_1.layout)({ title: 'Skills', session: c.get('session') }, (0, html_1.html) `${picker}${chosen ? (0, html_1.html) `<h2>Published in ${chosen}</h2>` : (0, html_1.html) `<p>You have no scopes.</p>`}
${skills.length ? (0, html_1.html) `<table><thead><tr><th>Name</th><th>Description</th><th>Active revision</th></tr></thead><tbody>${rows}</tbody></table>` : chosen ? (0, html_1.html) `<p>No published skills.</p>` : ''}`));
    });
    app.get('/skills/:skillId', async (c) => {
        const user = c.get('user');
        const t = await (0, read_model_1.skillTimelineFor)(deps, user, c.req.query('scope') ?? '', c.req.param('skillId'));
        const name = [...t.revisions].reverse().find((r) => r.spec)?.spec?.name ?? t.skillId;
        const rows = [...t.revisions].reverse().map((r) => (0, html_1.html) `<tr><td><a href="/revisions/${encodeURIComponent(r.id)}">${r.id}</a></td><td>${(0, layout_1.badge)(r.status)}</td><td>${r.action}</td><td>${r.source}</td><td>${r.createdAt}</td>
<td>${r.human?.reviewer ? (0, html_1.html) `${r.human.decision} by ${r.human.reviewer}` : ''}</td>
<td>${(0, users_1.canAct)(user) && r.status === 'archived' && r.id !== t.activeRevisionId ? (0, html_1.html) `<a href="/skills/${encodeURIComponent(t.skillId)}/rollback?${(0, layout_1.scopeQuery)(t.scopeKey)}&revision=${encodeURIComponent(r.id)}">Roll back to this</a>` : ''}</td></tr>`);
        return c.html((0, layout_1.layout)({ title: name, session: c.get('session') }, (0, html_1.html) `<p>Skill ${t.skillId} in ${t.scopeKey}; active revision: <strong data-testid="active-revision">${t.activeRevisionId ?? 'none'}</strong></p>
<h2>Revision timeline</h2><table><thead><tr><th>Revision</th><th>Status</th><th>Action</th><th>Source</th><th>Created</th><th>Decision</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<h2>Audit trail</h2>${(0, revision_1.auditTable)(t.audit)}`));
    });
    /** Confirmation first: a rollback changes what every agent of the scope loads. */
    app.get('/skills/:skillId/rollback', async (c) => {
        const user = c.get('user');
        const session = c.get('session');
        const t = await (0, read_model_1.skillTimelineFor)(deps, user, c.req.query('scope') ?? '', c.req.param('skillId'));
        const target = c.req.query('revision');
        return c.html((0, layout_1.layout)({ title: `Roll back ${t.skillId}?`, session }, (0, html_1.html) `<form method="post" action="/skills/${encodeURIComponent(t.skillId)}/rollback" class="card">${(0, layout_1.csrfField)(session)}
<input type="hidden" name="scope" value="${t.scopeKey}"><input type="hidden" name="revision" value="${target ?? ''}">
<p>Every agent in <strong>${t.scopeKey}</strong> will load <strong>${target ?? 'the latest archived revision'}</strong> instead of ${t.activeRevisionId ?? 'nothing'}.
This is recorded under your name (${user.name}).</p>
<label>Why<br><textarea name="comment" rows="2" maxlength="4000"></textarea></label>
<p><button type="submit" name="confirm" value="yes">Confirm rollback</button> <a href="/skills/${encodeURIComponent(t.skillId)}?${(0, layout_1.scopeQuery)(t.scopeKey)}">Cancel</a></p></form>`));
    });
    app.post('/skills/:skillId/rollback', async (c) => {
        const session = c.get('session');
        const body = await c.req.parseBody();
        const scopeKey = typeof body.scope === 'string' ? body.scope : '';
        const skillId = c.req.param('skillId');
        const target = typeof body.revision === 'string' && body.revision ? body.revision : undefined;
        const comment = typeof body.comment === 'string' && body.comment.trim() ? body.comment.trim().slice(0, 4000) : undefined;
        try {
            const r = await (0, read_model_1.rollbackFor)(deps, c.get('user'), { scopeKey, skillId, targetRevisionId: target, comment });
            session.flash = `Rolled back: ${r.restoredRevisionId} is active again${r.archivedRevisionId ? `; ${r.archivedRevisionId} archived` : ''}`;
        }
        catch (e) {
            if (!(e instanceof errors_1.StateError))
                throw e;
            session.flash = `Not rolled back: ${e.message}`;
        }
        return c.redirect(`/skills/${encodeURIComponent(skillId)}?${(0, layout_1.scopeQuery)(scopeKey)}`, 303);
    });
    return app;
}
//# sourceMappingURL=skills.js.map