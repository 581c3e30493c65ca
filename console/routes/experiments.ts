import { Hono } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../auth';
import { experimentFor, experimentsFor, type ConsoleDeps } from '../read-model';
import { validationChart } from '../views/chart';
import { layout } from '../views/layout';

const score = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(3));
const revisionLink = (id: string | undefined) => (id ? html`<a href="/revisions/${encodeURIComponent(id)}">${id}</a>` : '');

export function experimentRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/experiments', async (c) => {
    const list = await experimentsFor(deps, c.get('user'));
    const rows = list.map(
      (e) =>
        html`<tr>
          <td><a href="/experiments/${encodeURIComponent(e.experimentId)}">${e.experimentId}</a></td>
          <td>${e.scopeKey}</td>
          <td>${e.skillId ?? ''}</td>
          <td>${e.dataset}</td>
          <td>${e.status}</td>
          <td>${e.startedAt}</td>
          <td>${revisionLink(e.submittedRevisionId)}</td>
        </tr>`,
    );
    return c.html(
      layout(
        { title: 'Experiments', session: c.get('session') },
        list.length
          ? html`<table>
              <thead>
                <tr>
                  <th>Experiment</th>
                  <th>Scope</th>
                  <th>Skill</th>
                  <th>Dataset</th>
                  <th>Status</th>
                  <th>Started</th>
                  <th>Submitted revision</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
          : html`<p>No experiments in your scopes.</p>`,
      ),
    );
  });

  app.get('/experiments/:id', async (c) => {
    const p = await experimentFor(deps, c.get('user'), c.req.param('id'));
    const report = p.view.report;
    const accepted = p.log.filter((e) => e.accepted && e.childId);
    const lineage = accepted.length
      ? html`<ol>
          ${accepted.map((e) => html`<li>${e.childId} ← ${e.parentId} <span class="muted">(iteration ${e.iteration}, ${e.component}: ${e.reason})</span></li>`)}
        </ol>`
      : html`<p class="muted">No child was accepted; the seed is the only candidate.</p>`;
    const holdout = p.holdout.length
      ? html`<table>
          <thead>
            <tr>
              <th>Case</th>
              <th>Seed</th>
              <th>Winner</th>
              <th>Δ</th>
            </tr>
          </thead>
          <tbody>
            ${p.holdout.map(
              (h) =>
                html`<tr>
                  <td>${h.caseId}${h.critical ? html` <span class="badge rejected">critical</span>` : ''}</td>
                  <td>${score(h.seed)}</td>
                  <td>${score(h.winner)}</td>
                  <td>${h.seed !== undefined && h.winner !== undefined ? `${h.winner - h.seed >= 0 ? '+' : ''}${(h.winner - h.seed).toFixed(3)}` : ''}</td>
                </tr>`,
            )}
          </tbody>
        </table>`
      : html`<p class="muted">No holdout evaluation yet.</p>`;
    const iterations = html`<table>
      <thead>
        <tr>
          <th>#</th>
          <th>Parent</th>
          <th>Component</th>
          <th>Outcome</th>
          <th>Validation</th>
          <th>Why</th>
        </tr>
      </thead>
      <tbody>
        ${p.log.map(
          (e) =>
            html`<tr>
              <td>${e.iteration}</td>
              <td>${e.parentId}</td>
              <td>${e.component}</td>
              <td>${e.outcome}</td>
              <td>${score(e.childValidationMean)}</td>
              <td>${e.reason}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
    return c.html(
      layout(
        { title: `Experiment ${p.summary.experimentId}`, session: c.get('session') },
        html`<p>
            ${p.summary.status} · scope ${p.summary.scopeKey}${p.summary.skillId ? html` · skill ${p.summary.skillId}` : ''} · dataset ${p.summary.dataset} · started
            ${p.summary.startedAt}
          </p>
          ${
            report
              ? html`<div class="card">
                  <div><strong>Stop reason:</strong> ${report.stopReason}</div>
                  <div><strong>Promotion:</strong> ${report.promotionEligible ? 'eligible' : 'not eligible'}: ${report.promotionReason}</div>
                  <div>
                    <strong>Validation:</strong> seed ${score(report.seedValidationMean)} → best ${score(report.bestValidationMean)} (${report.bestCandidateId ?? 'no winner'})
                  </div>
                  <div>
                    <strong>Submission:</strong> ${report.submission?.status ?? 'none'}${report.submission?.reason ? `: ${report.submission.reason}` : ''}
                    ${revisionLink(report.submission?.revisionId)}
                  </div>
                  ${report.error ? html`<div><strong>Error:</strong> ${report.error}</div>` : ''}
                </div>`
              : html`<div class="card">${p.view.error ?? 'Running.'}</div>`
          }
          <h2>Validation score per iteration</h2>
          ${validationChart(p.log, p.seedValidationMean)}
          <h2>Candidate lineage</h2>
          ${lineage}
          <h2>Holdout: seed vs winner per case</h2>
          ${holdout}
          <h2>Iterations</h2>
          ${iterations}`,
      ),
    );
  });
  return app;
}
