import { Hono } from 'hono';
import { html } from 'hono/html';
import { StateError } from '../../core/errors';
import type { ConsoleEnv } from '../auth';
import { evidenceStale } from '../../core/gepa/recertification';
import { rollbackFor, skillsFor, skillTimelineFor, usageFor, visibleScopes, type ConsoleDeps } from '../read-model';
import { canAct } from '../users';
import { auditTable } from './revision';
import { badge, csrfField, layout, scopeQuery } from '../views/layout';
import { table } from '../views/table';
import { usageSection } from '../views/usage';

export function skillRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();

  app.get('/skills', async (c) => {
    const user = c.get('user');
    const scopes = await visibleScopes(deps.store, user);
    const chosen = c.req.query('scope') ?? scopes[0];
    const skills = chosen ? await skillsFor(deps, user, chosen) : [];
    const picker = html`<form method="get" action="/skills">
      <label
        >Scope
        <select name="scope">
          ${scopes.map((s) => html`<option value="${s}" ${s === chosen ? ' selected' : ''}>${s}</option>`)}
        </select></label
      >
      <button>Show</button>
    </form>`;
    return c.html(
      layout(
        { title: 'Skills', session: c.get('session') },
        html`${picker}${chosen ? html`<h2>Published in ${chosen}</h2>` : html`<p>You have no scopes.</p>`}
        ${
          chosen
            ? table(
                skills,
                [
                  { header: 'Name', cell: (s) => html`<a href="/skills/${encodeURIComponent(s.skillId)}?${scopeQuery(chosen)}">${s.name}</a>` },
                  { header: 'Description', cell: (s) => s.description },
                  { header: 'Active revision', className: 'muted', cell: (s) => s.revisionId },
                ],
                { empty: 'No published skills.' },
              )
            : ''
        }`,
      ),
    );
  });

  app.get('/skills/:skillId', async (c) => {
    const user = c.get('user');
    const t = await skillTimelineFor(deps, user, c.req.query('scope') ?? '', c.req.param('skillId'));
    const name = [...t.revisions].reverse().find((r) => r.spec)?.spec?.name ?? t.skillId;
    // The scope is the one the timeline was authorized for: one GET of its usage counters, one of its index.
    const usage = await usageFor(deps, user, t.scopeKey);
    return c.html(
      layout(
        { title: name, session: c.get('session') },
        html`<p>Skill ${t.skillId} in ${t.scopeKey}; active revision: <strong data-testid="active-revision">${t.activeRevisionId ?? 'none'}</strong></p>
          ${
            t.certification && evidenceStale(t.certification)
              ? html`<p class="card" data-testid="evidence-stale">
                  <strong>Evidence stale</strong> (${t.certification.verdict}, checked ${t.certification.checkedAt}):
                  ${t.certification.reason}${
                    t.certification.proposedRollbackTo
                      ? html`. Proposed: roll back to <a href="/revisions/${encodeURIComponent(t.certification.proposedRollbackTo)}">${t.certification.proposedRollbackTo}</a>`
                      : ''
                  }
                </p>`
              : ''
          }
          <h2>Revision timeline</h2>
          ${table([...t.revisions].reverse(), [
            { header: 'Revision', cell: (r) => html`<a href="/revisions/${encodeURIComponent(r.id)}">${r.id}</a>` },
            { header: 'Status', cell: (r) => badge(r.status) },
            { header: 'Action', cell: (r) => r.action },
            { header: 'Source', cell: (r) => r.source },
            { header: 'Created', cell: (r) => r.createdAt },
            { header: 'Decision', cell: (r) => (r.human?.reviewer ? html`${r.human.decision} by ${r.human.reviewer}` : '') },
            {
              header: '',
              cell: (r) =>
                canAct(user) && r.status === 'archived' && r.id !== t.activeRevisionId
                  ? html`<a href="/skills/${encodeURIComponent(t.skillId)}/rollback?${scopeQuery(t.scopeKey)}&revision=${encodeURIComponent(r.id)}">Roll back to this</a>`
                  : '',
            },
          ])}
          ${usageSection(
            usage.skills.find((s) => s.skillId === t.skillId),
            usage.windowDays,
          )}
          <h2>Audit trail</h2>
          ${auditTable(t.audit)}`,
      ),
    );
  });

  /** Confirmation first: a rollback changes what every agent of the scope loads. */
  app.get('/skills/:skillId/rollback', async (c) => {
    const user = c.get('user');
    const session = c.get('session')!;
    const t = await skillTimelineFor(deps, user, c.req.query('scope') ?? '', c.req.param('skillId'));
    const target = c.req.query('revision');
    return c.html(
      layout(
        { title: `Roll back ${t.skillId}?`, session },
        html`<form method="post" action="/skills/${encodeURIComponent(t.skillId)}/rollback" class="card">
          ${csrfField(session)} <input type="hidden" name="scope" value="${t.scopeKey}" /><input type="hidden" name="revision" value="${target ?? ''}" />
          <p>
            Every agent in <strong>${t.scopeKey}</strong> will load <strong>${target ?? 'the latest archived revision'}</strong> instead of ${t.activeRevisionId ?? 'nothing'}. This
            is recorded under your name (${user.name}).
          </p>
          <label>Why<br /><textarea name="comment" rows="2" maxlength="4000"></textarea></label>
          <p><button type="submit" name="confirm" value="yes">Confirm rollback</button> <a href="/skills/${encodeURIComponent(t.skillId)}?${scopeQuery(t.scopeKey)}">Cancel</a></p>
        </form>`,
      ),
    );
  });

  app.post('/skills/:skillId/rollback', async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const scopeKey = typeof body.scope === 'string' ? body.scope : '';
    const skillId = c.req.param('skillId');
    const target = typeof body.revision === 'string' && body.revision ? body.revision : undefined;
    const comment = typeof body.comment === 'string' && body.comment.trim() ? body.comment.trim().slice(0, 4000) : undefined;
    try {
      const r = await rollbackFor(deps, c.get('user'), { scopeKey, skillId, targetRevisionId: target, comment });
      session.flash = `Rolled back: ${r.restoredRevisionId} is active again${r.archivedRevisionId ? `; ${r.archivedRevisionId} archived` : ''}`;
    } catch (e) {
      if (!(e instanceof StateError)) throw e;
      session.flash = `Not rolled back: ${e.message}`;
    }
    return c.redirect(`/skills/${encodeURIComponent(skillId)}?${scopeQuery(scopeKey)}`, 303);
  });
  return app;
}
