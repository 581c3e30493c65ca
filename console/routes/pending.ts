import { Hono } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../auth';
import type { OpenApproval } from '../../client/approvals';
import { openApprovalsFor, pendingFor, type ConsoleDeps } from '../read-model';
import { ago, layout } from '../views/layout';
import { table } from '../views/table';

/** What the page polls: the open approvals (a visibility query, no storage read), so a decision anywhere reloads it. */
export const pendingVersion = (open: readonly OpenApproval[]) => open.map((a) => a.revisionId).join(',');

export function pendingRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/', async (c) => {
    const open = await openApprovalsFor(deps, c.get('user'));
    const items = await pendingFor(deps, c.get('user'), { open });
    return c.html(
      layout(
        { title: 'Pending', session: c.get('session'), live: { url: '/live/pending', version: pendingVersion(open) } },
        table(
          items,
          [
            {
              header: 'Skill',
              cell: (i) =>
                html`<a href="/revisions/${encodeURIComponent(i.revisionId)}">${i.name}</a>
                  <div class="muted">${i.revisionId}</div>`,
            },
            { header: 'Scope', cell: (i) => i.scopeKey },
            { header: 'Action', cell: (i) => i.action },
            { header: 'Source', cell: (i) => (i.source === 'gepa' ? 'GEPA' : i.source) },
            {
              header: 'Why it waits',
              className: 'held-because',
              cell: (i) => html`${i.risk === 'high' ? html`<strong>high risk</strong>` : ''} ${i.heldBecause.map((r) => html`<div>${r}</div>`)}`,
            },
            { header: 'Held', cell: (i) => html`<span title="${i.createdAt}">${ago(i.createdAt)}</span>` },
            {
              header: 'At the deadline',
              cell: (i) =>
                i.expiresAt
                  ? html`${i.expiryAction === 'reject' ? 'rejected' : 'published'} <span title="${i.expiresAt}">${ago(i.expiresAt)}</span>`
                  : 'never (waits for a person)',
            },
          ],
          { empty: 'Nothing waits for a decision in your scopes.' },
        ),
      ),
    );
  });
  return app;
}
