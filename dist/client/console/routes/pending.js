"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.pendingVersion = void 0;
exports.pendingRoutes = pendingRoutes;
const hono_1 = require("hono");
const html_1 = require("hono/html");
const read_model_1 = require("../read-model");
const layout_1 = require("../views/layout");
const pendingVersion = (items) => items.map((i) => i.revisionId).join(',');
exports.pendingVersion = pendingVersion;
function pendingRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/', async (c) => {
        const items = await (0, read_model_1.pendingFor)(deps, c.get('user'));
        const rows = items.map((i) => (0, html_1.html) `<tr><td><a href="/revisions/${encodeURIComponent(i.revisionId)}">${i.name}</a><div class="muted">${i.revisionId}</div></td>
<td>${i.scopeKey}</td><td>${i.action}</td><td>${i.source === 'gepa' ? 'GEPA' : i.source}</td>
<td title="${i.createdAt}">${(0, layout_1.ago)(i.createdAt)}</td><td>${i.expiresAt ? (0, html_1.html) `<span title="${i.expiresAt}">${(0, layout_1.ago)(i.expiresAt)}</span>` : 'never (waits for a person)'}</td></tr>`);
        return c.html((0, layout_1.layout)({ title: 'Pending', session: c.get('session'), live: { url: '/live/pending', version: (0, exports.pendingVersion)(items) } }, items.length
            ? (0, html_1.html) `<table><thead><tr><th>Skill</th><th>Scope</th><th>Action</th><th>Source</th><th>Held</th><th>Auto-promotes</th></tr></thead><tbody>${rows}</tbody></table>`
            : (0, html_1.html) `<p>Nothing waits for a decision in your scopes.</p>`));
    });
    return app;
}
//# sourceMappingURL=pending.js.map