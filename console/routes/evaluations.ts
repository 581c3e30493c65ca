import { Hono } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../auth';
import type { ConsoleDeps } from '../read-model';
import { layout } from '../views/layout';
import { table } from '../views/table';
import { canSee, type ConsoleUser } from '../users';
import { NotFoundError } from '../../core/errors';
import { RunIdSchema, type EvaluationRunRecord } from '../../core/evaluation';
import { evaluationReportHtml, getEvaluationRun, listEvaluationRuns, readEvaluationRun } from '../../client/evaluation';

const pct = (v: number) => `${(v * 100).toFixed(0)}%`;

/** Evaluation runs the user may see: those whose scope (the run's own) matches one of theirs. */
export async function evaluationRunsFor(deps: ConsoleDeps, user: ConsoleUser): Promise<EvaluationRunRecord[]> {
  return (await listEvaluationRuns(deps.store)).filter((r) => canSee(user, r.scopeKey));
}

async function visibleRun(deps: ConsoleDeps, user: ConsoleUser, runId: string): Promise<EvaluationRunRecord> {
  const record = RunIdSchema.safeParse(runId).success ? await readEvaluationRun(deps.store, runId) : undefined;
  if (!record || !canSee(user, record.scopeKey)) throw new NotFoundError(`no evaluation run ${runId}`);
  return record;
}

/** The Experiments page's list of evaluation runs (`evolution evaluate`), each linking to its page. */
export function evaluationRunsTable(runs: EvaluationRunRecord[]) {
  if (!runs.length) return html`<p class="muted">No evaluation runs in your scopes (<code>evolution evaluate</code> starts one).</p>`;
  return table(runs, [
    { header: 'Run', cell: (r) => html`<a href="/evaluations/${encodeURIComponent(r.runId)}">${r.runId}</a>` },
    { header: 'Family', cell: (r) => r.family },
    { header: 'Arms', cell: (r) => r.arms.join(', ') },
    { header: 'Phases', cell: (r) => r.phases.join(', ') },
    { header: 'Seeds', numeric: true, cell: (r) => r.seeds },
    { header: 'Agent model', cell: (r) => html`${r.agentModel}${r.judgeModel ? html` <span class="muted">(judge ${r.judgeModel})</span>` : ''}` },
    { header: 'Started', cell: (r) => r.startedAt },
  ]);
}

/**
 * An evaluation run's page: its workflow's progress per arm and phase (the progress query;
 * the records in S3 when no worker answers), and its report once written. The report is the
 * page core/evaluation/report-html.ts rendered (every value escaped there), served under
 * the console's sign-in and content-security policy (no script runs).
 */
export function evaluationRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();

  app.get('/evaluations/:runId', async (c) => {
    const record = await visibleRun(deps, c.get('user'), c.req.param('runId'));
    const view = await getEvaluationRun(deps, record.runId);
    const progress = view.progress
      ? html`<p>Stage: <strong>${view.progress.stage}</strong>${view.progress.message ? ` — ${view.progress.message}` : ''}</p>
          ${table(view.progress.blocks, [
            { header: 'Phase', cell: (b) => b.phase },
            { header: 'Arm', cell: (b) => b.arm },
            { header: 'Episodes', cell: (b) => html`<progress max="${b.total}" value="${b.done}"></progress> ${b.done}/${b.total}` },
            { header: 'Passed', numeric: true, cell: (b) => b.passed },
            { header: 'Recorded before (not repeated)', numeric: true, cell: (b) => b.recordedBefore },
          ])}`
      : view.progressUnavailable
        ? html`<p class="muted">
            No worker is running this evaluation (${view.progressUnavailable}). The same <code>evolution evaluate … --run-id ${record.runId}</code> resumes it from its records.
          </p>`
        : '';
    const report = view.report
      ? html`<h2>Report</h2>
          <p><a href="/evaluations/${encodeURIComponent(record.runId)}/report">Open the full report</a> (plots, per-case wins and losses, negative transfer).</p>
          ${table(view.report.summaries, [
            { header: 'Arm', cell: (s) => s.arm },
            { header: 'Phase', cell: (s) => s.phase },
            { header: 'Pass rate', numeric: true, cell: (s) => `${pct(s.passRate.mean)} [${pct(s.passRate.low)}, ${pct(s.passRate.high)}]` },
            { header: 'Quality', numeric: true, cell: (s) => pct(s.quality.mean) },
            { header: 'Judge', numeric: true, cell: (s) => (s.judgeQuality ? pct(s.judgeQuality.mean) : '–') },
            { header: 'vs baseline', cell: (s) => (s.vsBaseline ? `${s.vsBaseline.verdict} (${pct(s.vsBaseline.passRate.mean)})` : '–') },
          ])}`
      : html`<p class="muted">No report yet.</p>`;
    return c.html(
      layout(
        { title: `Evaluation ${record.runId}`, session: c.get('session') },
        html`<p>
            Family ${record.family} · arms ${record.arms.join(', ')} · phases ${record.phases.join(', ')} · ${record.seeds} seeds · agent ${record.agentModel}
            ${record.judgeModel ? ` · judge ${record.judgeModel}` : ''} · started ${record.startedAt}
          </p>
          <p>Workflow: ${view.workflowStatus ? view.workflowStatus.toLowerCase() : 'not in Temporal'} · ${view.recordedCases} cases recorded</p>
          ${progress} ${report}`,
      ),
    );
  });

  app.get('/evaluations/:runId/report', async (c) => {
    const record = await visibleRun(deps, c.get('user'), c.req.param('runId'));
    const page = await evaluationReportHtml(deps.store, record.runId);
    if (page === undefined) throw new NotFoundError(`evaluation run ${record.runId} has no report yet`);
    return c.html(page);
  });
  return app;
}
