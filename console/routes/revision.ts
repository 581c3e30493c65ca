import { Hono } from 'hono';
import { html } from 'hono/html';
import { z } from 'zod';
import { renderSkillMarkdown, type AuditEvent, type Revision } from '../../core';
import { StateError } from '../../core/errors';
import type { ConsoleEnv } from '../auth';
import { decideFor, revisionFor, type ConsoleDeps } from '../read-model';
import { canAct } from '../users';
import { diffView } from '../views/diff';
import { badge, csrfField, layout } from '../views/layout';
import { fieldTable, table } from '../views/table';
import { rolloutCard } from './rollout';
import { rolloutFor } from '../read-model';

export const DecisionFormSchema = z.object({
  decision: z.enum(['approve', 'reject'], { message: 'decision must be "approve" or "reject"' }),
  comment: z.string().max(4000, 'comment is longer than 4000 characters').optional(),
});

export const revisionVersion = (r: Revision) => `${r.status}|${r.human?.decision ?? ''}|${r.human?.reviewer ?? ''}`;

export function auditTable(events: readonly AuditEvent[], highlight?: string) {
  return table(
    events,
    [
      { header: 'When', cell: (e) => e.at },
      { header: 'Action', cell: (e) => e.action },
      { header: 'Revision', cell: (e) => e.revisionId },
      { header: 'Actor', cell: (e) => e.actor },
      { header: 'Reason', cell: (e) => e.reason },
    ],
    { empty: 'No audit events.', rowClass: (e) => (e.revisionId && e.revisionId === highlight ? 'current' : undefined) },
  );
}

function gatesView(r: Revision) {
  const gates = r.gates.map((g) => ({
    gate: g.gate,
    verdict: !g.ran ? 'skipped' : g.passed ? (g.held ? 'passed (held for evaluation)' : 'passed') : 'FAILED',
    reasons: g.reasons.map((x) => html`<div>${x}</div>`),
  }));
  const human = r.human
    ? {
        gate: 'human',
        verdict: r.human.decision ?? (r.human.held ? 'held for a person' : 'not required'),
        reasons: html`${r.human.reasons.map((x) => html`<div>${x}</div>`)}${
          r.human.reviewer
            ? html`<div>
                by <strong>${r.human.reviewer}</strong>${r.human.decidedAt ? html` at ${r.human.decidedAt}` : ''}${r.human.comment ? html`: “${r.human.comment}”` : ''}
              </div>`
            : ''
        }`,
      }
    : undefined;
  return table(human ? [...gates, human] : gates, [
    { header: 'Gate', cell: (g) => g.gate },
    { header: 'Verdict', cell: (g) => g.verdict },
    { header: 'Reasons', cell: (g) => g.reasons },
  ]);
}

function evidenceView(r: Revision) {
  const e = r.evidence;
  if (!e) return html`<p class="muted">No offline evidence (this revision came from ${r.source === 'reviewer' ? 'the online reviewer' : r.source}).</p>`;
  return fieldTable([
    ['Experiment', html`<a href="/experiments/${encodeURIComponent(e.experimentId)}">${e.experimentId}</a>`],
    ['Dataset', `${e.datasetId}@${e.datasetVersion} (${e.caseCount} holdout cases)`],
    ['Holdout score', `baseline ${e.baselineHoldoutScore.toFixed(3)} → candidate ${e.candidateHoldoutScore.toFixed(3)} (Δ ${e.delta >= 0 ? '+' : ''}${e.delta.toFixed(3)})`],
    ['Objectives', e.objectives.join(', ') || 'score'],
  ]);
}

export function revisionRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/revisions/:id', async (c) => {
    const user = c.get('user');
    const session = c.get('session')!;
    const page = await revisionFor(deps, user, c.req.param('id'));
    const r = page.revision;
    const decideForm =
      r.status !== 'pending_approval'
        ? ''
        : canAct(user)
          ? html`<form method="post" action="/revisions/${encodeURIComponent(r.id)}/decision" class="card">
              ${csrfField(session)}
              <label>Comment<br /><textarea name="comment" rows="3" maxlength="4000"></textarea></label>
              <p>
                <button name="decision" value="approve" type="submit">Approve</button> <button name="decision" value="reject" type="submit">Reject</button>
                <span class="muted">decided as <strong>${user.name}</strong></span>
              </p>
            </form>`
          : html`<p class="card">You are a viewer: you can read this revision but not decide it.</p>`;
    // A live canary: active for its cohort while the pointer names the stable revision; its rollout answers a query (a worker must be up).
    const rollout =
      r.status === 'active' && page.activeRevisionId !== r.id
        ? await rolloutFor(deps, user, r.id).then(
            (s) => rolloutCard(s, user, session),
            (e: Error) => html`<p class="card muted">Staged rollout: ${e.message}</p>`,
          )
        : '';
    return c.html(
      layout(
        { title: r.spec?.name ?? r.skillId, session, live: { url: `/live/revisions/${encodeURIComponent(r.id)}`, version: revisionVersion(r) } },
        html`<p>
            ${badge(r.status)} ${r.action} of <a href="/skills/${encodeURIComponent(r.skillId)}?scope=${encodeURIComponent(r.scopeKey)}">${r.skillId}</a> in ${r.scopeKey} · source
            ${r.source === 'gepa' ? 'GEPA' : r.source} · created ${r.createdAt} · <span class="muted">${r.id}</span>
          </p>
          ${r.reason ? html`<p>${r.reason}</p>` : ''} ${decideForm} ${rollout}
          <h2>Changes against the active revision${page.activeRevisionId ? html` (${page.activeRevisionId})` : ' (nothing published yet)'}</h2>
          ${diffView(page.diff)}
          <h2>Gate reports</h2>
          ${gatesView(r)}
          <h2>Evidence</h2>
          ${evidenceView(r)}
          <h2>SKILL.md of this revision</h2>
          <pre data-testid="skill-md">${r.spec ? renderSkillMarkdown(r.spec) : '(delete: no content)'}</pre>
          <h2>Audit trail of ${r.skillId}</h2>
          ${auditTable(page.audit, r.id)}`,
      ),
    );
  });

  app.post('/revisions/:id/decision', async (c) => {
    const id = c.req.param('id');
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const form = DecisionFormSchema.safeParse({ decision: body.decision, comment: typeof body.comment === 'string' && body.comment.trim() ? body.comment.trim() : undefined });
    if (!form.success) {
      session.flash = `Not decided: ${form.error.issues.map((i) => i.message).join('; ')}`;
    } else {
      try {
        const answer = await decideFor(deps, c.get('user'), id, form.data);
        session.flash = `${answer.decision.replace('_', ' ')} by ${answer.reviewer}; the revision is now ${answer.finalStatus.replace('_', ' ')}`;
      } catch (e) {
        if (!(e instanceof StateError)) throw e;
        session.flash = `Not decided: ${e.message}`;
      }
    }
    return c.redirect(`/revisions/${encodeURIComponent(id)}`, 303);
  });
  return app;
}
