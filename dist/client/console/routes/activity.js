"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.activityFilter = activityFilter;
exports.activityRoutes = activityRoutes;
const hono_1 = require("hono");
const html_1 = require("hono/html");
const core_1 = require("../../../core");
const read_model_1 = require("../read-model");
const layout_1 = require("../views/layout");
const revision_1 = require("./revision");
function activityFilter(q) {
    const v = (name) => q(name)?.trim() || undefined;
    return { scopeKey: v('scope'), skillId: v('skill'), action: v('action'), actor: v('actor') };
}
function activityRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/activity', async (c) => {
        const user = c.get('user');
        const filter = activityFilter((n) => c.req.query(n));
        const [scopes, { events, metrics }] = await Promise.all([(0, read_model_1.visibleScopes)(deps.store, user), (0, read_model_1.activityFor)(deps, user, filter)]);
        const counterNames = Object.keys(Object.values(metrics)[0] ?? {});
        const form = (0, html_1.html) `<form method="get" action="/activity" class="card">
<label>Scope <select name="scope"><option value="">all</option>${scopes.map((s) => (0, html_1.html) `<option value="${s}"${s === filter.scopeKey ? ' selected' : ''}>${s}</option>`)}</select></label>
<label>Skill <input name="skill" value="${filter.skillId ?? ''}" size="18"></label>
<label>Action <select name="action"><option value="">any</option>${core_1.AuditActionSchema.options.map((a) => (0, html_1.html) `<option${a === filter.action ? ' selected' : ''}>${a}</option>`)}</select></label>
<label>Actor <input name="actor" value="${filter.actor ?? ''}" size="12"></label> <button>Filter</button></form>`;
        return c.html((0, layout_1.layout)({ title: 'Activity', session: c.get('session') }, (0, html_1.html) `<h2>Governance counters</h2>
<table><thead><tr><th>Counter</th>${Object.keys(metrics).map((scope) => (0, html_1.html) `<th>${scope}</th>`)}</tr></thead><tbody>${counterNames.map((n) => (0, html_1.html) `<tr><td>${n}</td>${Object.values(metrics).map((m) => (0, html_1.html) `<td>${m[n]}</td>`)}</tr>`)}</tbody></table>
<h2>Audit log</h2>${form}${(0, revision_1.auditTable)(events)}`));
    });
    return app;
}
//# sourceMappingURL=activity.js.map