import { Hono } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../auth';
import { experimentFor, experimentsFor, type ConsoleDeps } from '../read-model';
import { validationChart } from '../views/chart';
import { layout } from '../views/layout';
import { table } from '../views/table';
import { evaluationRunsFor, evaluationRunsTable } from './evaluations';

const score = (n: number | undefined) => (n === undefined ? '–' : n.toFixed(3));
const revisionLink = (id: string | undefined) => (id ? html`<a href="/revisions/${encodeURIComponent(id)}">${id}</a>` : '');

export function experimentRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/experiments', async (c) => {
    const [list, evaluations] = await Promise.all([experimentsFor(deps, c.get('user')), evaluationRunsFor(deps, c.get('user'))]);
    return c.html(
      layout(
        { title: 'Experiments', session: c.get('session') },
        html`${table(
            list,
            [
              { header: 'Experiment', cell: (e) => html`<a href="/experiments/${encodeURIComponent(e.experimentId)}">${e.experimentId}</a>` },
              { header: 'Scope', cell: (e) => e.scopeKey },
              { header: 'Skill', cell: (e) => e.skillId },
              { header: 'Dataset', cell: (e) => e.dataset },
              { header: 'Status', cell: (e) => e.status },
              { header: 'Started', cell: (e) => e.startedAt },
              { header: 'Submitted revision', cell: (e) => revisionLink(e.submittedRevisionId) },
            ],
            { empty: 'No experiments in your scopes.' },
          )}
          <h2>Evaluation runs</h2>
          ${evaluationRunsTable(evaluations)}`,
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
    const holdout = table(
      p.holdout,
      [
        { header: 'Case', cell: (h) => html`${h.caseId}${h.critical ? html` <span class="badge rejected">critical</span>` : ''}` },
        { header: 'Seed', numeric: true, cell: (h) => score(h.seed) },
        { header: 'Winner', numeric: true, cell: (h) => score(h.winner) },
        {
          header: 'Δ',
          numeric: true,
          cell: (h) => (h.seed !== undefined && h.winner !== undefined ? `${h.winner - h.seed >= 0 ? '+' : ''}${(h.winner - h.seed).toFixed(3)}` : ''),
        },
      ],
      { empty: 'No holdout evaluation yet.' },
    );
    const iterations = table(p.log, [
      { header: '#', numeric: true, cell: (e) => e.iteration },
      { header: 'Parent', cell: (e) => e.parentId },
      { header: 'Component', cell: (e) => e.component },
      { header: 'Outcome', cell: (e) => e.outcome },
      { header: 'Validation', numeric: true, cell: (e) => score(e.childValidationMean) },
      { header: 'Why', cell: (e) => e.reason },
    ]);
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
