import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import type { RolloutStatus } from '../../client/rollout';
import { InputError, StateError } from '../../core/errors';
import type { ConsoleEnv } from '../auth';
import type { ConsoleSession } from '../sessions';
import { rolloutActionFor, rolloutFor, type ConsoleDeps } from '../read-model';
import { canAct, type ConsoleUser } from '../users';
import { csrfField } from '../views/layout';
import { fieldTable, type Cell } from '../views/table';

export const RolloutActionSchema = z.object({
  action: z.enum(['promote', 'abort'], { message: 'action must be "promote" or "abort"' }),
  comment: z.string().max(4000, 'comment is longer than 4000 characters').optional(),
});

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The rollout card of a canary's revision page: where it is, the last look, and the approver's buttons. */
export function rolloutCard(s: RolloutStatus, user: ConsoleUser, session: ConsoleSession) {
  const rows: [string, Cell][] = [
    ['State', s.state.replace('_', ' ')],
    ['Candidate share', `${pct(s.fraction)} of sessions (steps ${s.steps.map(pct).join(', ')}, then 100 %)`],
    ['Minimum sample', `${s.minSamplePerCohort} judged sessions per cohort before any decision`],
    ['Deadline', `${s.deadline} (${s.state === 'held' ? 'passed: held for an approver' : `then ${s.onExpiry}`})`],
  ];
  if (s.last)
    rows.push([
      `Last look (${s.checks})`,
      `${s.last.at}: candidate ${s.last.candidate.success}/${s.last.candidate.judged}, stable ${s.last.stable.success}/${s.last.stable.judged} succeeded; ${s.last.reason}`,
    ]);
  if (s.result) rows.push(['Outcome', `${s.result.outcome.replace('_', ' ')} by ${s.result.decidedBy} at ${s.result.at}: ${s.result.reason}`]);
  const form =
    s.result || !canAct(user)
      ? ''
      : html`<form method="post" action="/revisions/${encodeURIComponent(s.candidateRevisionId)}/rollout" data-testid="rollout-form">
          ${csrfField(session)}
          <label>Comment<br /><textarea name="comment" rows="2" maxlength="4000"></textarea></label>
          <p>
            <button name="action" value="promote" type="submit">Promote to everyone</button> <button name="action" value="abort" type="submit">Abort (roll back)</button>
            <span class="muted">as <strong>${user.name}</strong></span>
          </p>
        </form>`;
  return html`<div class="card" data-testid="rollout">
    <h2>Staged rollout over ${s.stableRevisionId}</h2>
    ${fieldTable(rows)} ${form}
  </div>`;
}

/** Approver actions on a canary, JSON API (bearer): GET a rollout's status, POST {action, comment}. */
export function rolloutApiRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/api/rollouts/:id', async (c) => c.json(await rolloutFor(deps, c.get('user'), c.req.param('id'))));
  app.post('/api/rollouts/:id', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new InputError('the body must be JSON: {"action": "promote" | "abort", "comment": "..."}');
    }
    const parsed = RolloutActionSchema.safeParse(body);
    if (!parsed.success) throw new InputError(`invalid rollout action: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`);
    return c.json(await rolloutActionFor(deps, c.get('user'), c.req.param('id'), parsed.data));
  });
  return app;
}

/** The revision page's promote/abort form (session + CSRF). */
export function rolloutPageRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.post('/revisions/:id/rollout', async (c) => {
    const id = c.req.param('id');
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const form = RolloutActionSchema.safeParse({ action: body.action, comment: typeof body.comment === 'string' && body.comment.trim() ? body.comment.trim() : undefined });
    if (!form.success) session.flash = `Not done: ${form.error.issues.map((i) => i.message).join('; ')}`;
    else {
      try {
        const s = await rolloutActionFor(deps, c.get('user'), id, form.data);
        session.flash = `Rollout ${s.state.replace('_', ' ')}${s.result ? ` by ${s.result.decidedBy}` : ''}`;
      } catch (e) {
        if (!(e instanceof StateError)) throw e;
        session.flash = `Not done: ${e.message}`;
      }
    }
    return c.redirect(`/revisions/${encodeURIComponent(id)}`, 303);
  });
  return app;
}
