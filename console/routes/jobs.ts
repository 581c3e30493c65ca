import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { InputError, ServiceUnavailableError, StateError } from '../../core/errors';
import { jobWaitLine, type JobFailure, type JobView } from '../../client/jobs';
import type { ConsoleEnv } from '../auth';
import { isRerunnable, jobsFor, retryJobFor } from '../jobs-model';
import { visibleScopes, type ConsoleDeps } from '../read-model';
import type { ConsoleSession } from '../sessions';
import { canAct, type ConsoleUser } from '../users';
import { ago, badge, csrfField, layout } from '../views/layout';
import { table } from '../views/table';

const RetryBodySchema = z.object({ jobId: z.string({ message: 'jobId is required' }).min(1, 'jobId is required').max(1024, 'jobId is longer than 1024 characters') });

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InputError(`limit must be an integer from 1 to 1000, got ${JSON.stringify(value)}`);
  return n;
}

/** Why a job failed for good, as `evolution job` says it: the failing step, its last error, the service, and the cursor. */
export function failureCell(f: JobFailure) {
  const where = [f.step ? `step ${f.step}` : 'the job workflow itself', f.attempts ? `attempt ${f.attempts}` : '', f.retryState ? `retries stopped: ${f.retryState}` : '']
    .filter(Boolean)
    .join(', ');
  return html`<div class="root-cause">${f.error}${f.type ? html` <span class="muted">[${f.type}]</span>` : ''}</div>
    <div class="muted">${where}${f.service ? `; ${f.service} at ${f.address} could not be reached` : ''}</div>
    <div class="cursor">
      ${
        f.cursorMoved
          ? 'cursor moved: the delta is consumed and the decision stored; a re-run applies it'
          : 'cursor not moved: the delta is reviewed again by a re-run, or with the next segment'
      }
    </div>`;
}

/** What happened to a job: its outcome, what it waits for, or why it failed. */
export function jobDetails(job: JobView) {
  if (job.outcome)
    return html`<div>${job.outcome.status} — ${job.outcome.reason}</div>
      ${job.outcome.revisions.map((r) => html`<div><a href="/revisions/${encodeURIComponent(r.revisionId)}">${r.name}</a> ${r.action}: ${r.status}</div>`)}`;
  if (job.waiting) return html`<div class="waiting">${jobWaitLine(job.waiting)}</div>`;
  if (job.failedBecause) return failureCell(job.failedBecause);
  if (job.failure) return html`<div class="root-cause">${job.failure}</div>`;
  return '';
}

function retryForm(job: JobView, scopeKey: string, session: ConsoleSession) {
  return html`<form method="post" action="/jobs/retry">
    ${csrfField(session)}<input type="hidden" name="jobId" value="${job.jobId}" /><input type="hidden" name="scope" value="${scopeKey}" />
    <button type="submit">Re-run</button>
  </form>`;
}

/** A scope's learning jobs: state, what a running job waits for, why a failed one failed; approvers re-run failed ones. */
export function jobsTable(jobs: readonly JobView[], scopeKey: string, user: ConsoleUser, session: ConsoleSession) {
  return table(
    jobs,
    [
      {
        header: 'Job',
        cell: (j) =>
          html`<code>${j.jobId}</code>
            <div class="muted">${j.startedAt ? html`started <span title="${j.startedAt}">${ago(j.startedAt)}</span>` : 'no longer in Temporal'}</div>`,
      },
      { header: 'State', className: 'job-state', cell: (j) => badge((j.workflowStatus ?? 'archived').toLowerCase()) },
      { header: 'Details', className: 'job-details', cell: jobDetails },
      { header: '', cell: (j) => (isRerunnable(j) && canAct(user) ? retryForm(j, scopeKey, session) : '') },
    ],
    { empty: `No learning jobs in ${scopeKey}.` },
  );
}

/** The scopes to pick from; while S3 cannot be reached (the jobs may be waiting for it) the page still lists jobs by a typed scope key. */
async function scopesOrOutage(deps: ConsoleDeps, user: ConsoleUser): Promise<{ scopes: string[]; outage?: string }> {
  try {
    return { scopes: await visibleScopes(deps.store, user) };
  } catch (e) {
    if (e instanceof ServiceUnavailableError) return { scopes: [], outage: e.message };
    throw e;
  }
}

export function jobRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/jobs', async (c) => {
    const user = c.get('user');
    const session = c.get('session')!;
    const { scopes, outage } = await scopesOrOutage(deps, user);
    const scopeKey = c.req.query('scope')?.trim() || scopes[0];
    const picker = html`<form method="get" action="/jobs" class="card">
      <label
        >Scope
        ${
          scopes.length
            ? html`<select name="scope">
                ${scopes.map((s) => html`<option value="${s}" ${s === scopeKey ? ' selected' : ''}>${s}</option>`)}
              </select>`
            : html`<input name="scope" value="${scopeKey ?? ''}" size="30" />`
        }</label
      >
      <button>Show</button>
      ${outage ? html`<div class="muted">${outage}</div>` : ''}
    </form>`;
    if (!scopeKey)
      return c.html(
        layout(
          { title: 'Jobs', session },
          html`${picker}
            <p class="muted">No scopes to show.</p>`,
        ),
      );
    const { jobs } = await jobsFor(deps, user, scopeKey, { limit: limitOf(c.req.query('limit')) });
    return c.html(
      layout(
        { title: 'Jobs', session },
        html`${picker}
          <h2>Learning jobs in ${scopeKey}</h2>
          ${jobsTable(jobs, scopeKey, user, session)}`,
      ),
    );
  });

  app.post('/jobs/retry', async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const scope = typeof body.scope === 'string' ? body.scope : '';
    const form = RetryBodySchema.safeParse({ jobId: body.jobId });
    if (!form.success) {
      session.flash = `Not re-run: ${form.error.issues.map((i) => i.message).join('; ')}`;
    } else {
      try {
        const retried = await retryJobFor(deps, c.get('user'), form.data.jobId);
        session.flash = `${retried.jobId}: re-running from its first step (run ${retried.runId}; the failed run ${retried.previousRunId} stays in history)`;
      } catch (e) {
        if (!(e instanceof StateError)) throw e;
        session.flash = `Not re-run: ${e.message}`;
      }
    }
    return c.redirect(`/jobs${scope ? `?scope=${encodeURIComponent(scope)}` : ''}`, 303);
  });
  return app;
}

/** The JSON API of jobs (bearer token; docs/console.md). */
export function jobApiRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/api/jobs', async (c) => {
    const scope = c.req.query('scope');
    if (!scope) throw new InputError('give ?scope=<scope key> (GET /api/scopes lists yours)');
    return c.json(await jobsFor(deps, c.get('user'), scope, { limit: limitOf(c.req.query('limit')) }));
  });
  app.post('/api/jobs/retry', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new InputError('the body must be JSON: {"jobId": "learning/..."}');
    }
    const parsed = RetryBodySchema.safeParse(body);
    if (!parsed.success) throw new InputError(`invalid retry: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return c.json(await retryJobFor(deps, c.get('user'), parsed.data.jobId));
  });
  return app;
}
