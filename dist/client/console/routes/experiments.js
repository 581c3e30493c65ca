"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.experimentRoutes = experimentRoutes;
const hono_1 = require("hono");
const html_1 = require("hono/html");
const read_model_1 = require("../read-model");
const chart_1 = require("../views/chart");
const layout_1 = require("../views/layout");
const score = (n) => (n === undefined ? '–' : n.toFixed(3));
const revisionLink = (id) => (id ? (0, html_1.html) `<a href="/revisions/${encodeURIComponent(id)}">${id}</a>` : '');
function experimentRoutes(deps) {
    const app = new hono_1.Hono();
    app.get('/experiments', async (c) => {
        const list = await (0, read_model_1.experimentsFor)(deps, c.get('user'));
        const rows = list.map((e) => (0, html_1.html) `<tr><td><a href="/experiments/${encodeURIComponent(e.experimentId)}">${e.experimentId}</a></td><td>${e.scopeKey}</td><td>${e.skillId ?? ''}</td><td>${e.dataset}</td><td>${e.status}</td><td>${e.startedAt}</td><td>${revisionLink(e.submittedRevisionId)}</td></tr>`);
        return c.html((0, layout_1.layout)({ title: 'Experiments', session: c.get('session') }, list.length
            ? (0, html_1.html) `<table><thead><tr><th>Experiment</th><th>Scope</th><th>Skill</th><th>Dataset</th><th>Status</th><th>Started</th><th>Submitted revision</th></tr></thead><tbody>${rows}</tbody></table>`
            : (0, html_1.html) `<p>No experiments in your scopes.</p>`));
    });
    app.get('/experiments/:id', async (c) => {
        const p = await (0, read_model_1.experimentFor)(deps, c.get('user'), c.req.param('id'));
        const report = p.view.report;
        const accepted = p.log.filter((e) => e.accepted && e.childId);
        const lineage = accepted.length
            ? (0, html_1.html) `<ol>${accepted.map((e) => (0, html_1.html) `<li>${e.childId} ← ${e.parentId} <span class="muted">(iteration ${e.iteration}, ${e.component}: ${e.reason})</span></li>`)}</ol>`
            : (0, html_1.html) `<p class="muted">No child was accepted; the seed is the only candidate.</p>`;
        const holdout = p.holdout.length
            ? (0, html_1.html) `<table><thead><tr><th>Case</th><th>Seed</th><th>Winner</th><th>Δ</th></tr></thead><tbody>${p.holdout.map((h) => (0, html_1.html) `<tr><td>${h.caseId}${h.critical ? (0, html_1.html) ` <span class="badge rejected">critical</span>` : ''}</td><td>${score(h.seed)}</td><td>${score(h.winner)}</td>
<td>${h.seed !== undefined && h.winner !== undefined ? `${h.winner - h.seed >= 0 ? '+' : ''}${(h.winner - h.seed).toFixed(3)}` : ''}</td></tr>`)}</tbody></table>`
            : (0, html_1.html) `<p class="muted">No holdout evaluation yet.</p>`;
        const iterations = (0, html_1.html) `<table><thead><tr><th>#</th><th>Parent</th><th>Component</th><th>Outcome</th><th>Validation</th><th>Why</th></tr></thead><tbody>${p.log.map((e) => (0, html_1.html) `<tr><td>${e.iteration}</td><td>${e.parentId}</td><td>${e.component}</td><td>${e.outcome}</td><td>${score(e.childValidationMean)}</td><td>${e.reason}</td></tr>`)}</tbody></table>`;
        return c.html((0, layout_1.layout)({ title: `Experiment ${p.summary.experimentId}`, session: c.get('session') }, (0, html_1.html) `<p>${p.summary.status} · scope ${p.summary.scopeKey}${p.summary.skillId ? (0, html_1.html) ` · skill ${p.summary.skillId}` : ''} · dataset ${p.summary.dataset} · started ${p.summary.startedAt}</p>
${report
            ? (0, html_1.html) `<div class="card"><div><strong>Stop reason:</strong> ${report.stopReason}</div><div><strong>Promotion:</strong> ${report.promotionEligible ? 'eligible' : 'not eligible'}: ${report.promotionReason}</div>
<div><strong>Validation:</strong> seed ${score(report.seedValidationMean)} → best ${score(report.bestValidationMean)} (${report.bestCandidateId ?? 'no winner'})</div>
<div><strong>Submission:</strong> ${report.submission?.status ?? 'none'}${report.submission?.reason ? `: ${report.submission.reason}` : ''} ${revisionLink(report.submission?.revisionId)}</div>
${report.error ? (0, html_1.html) `<div><strong>Error:</strong> ${report.error}</div>` : ''}</div>`
            : (0, html_1.html) `<div class="card">${p.view.error ?? 'Running.'}</div>`}
<h2>Validation score per iteration</h2>${(0, chart_1.validationChart)(p.log, p.seedValidationMean)}
<h2>Candidate lineage</h2>${lineage}
<h2>Holdout: seed vs winner per case</h2>${holdout}
<h2>Iterations</h2>${iterations}`));
    });
    return app;
}
//# sourceMappingURL=experiments.js.map