import { Hono } from 'hono';
import { html } from 'hono/html';
import type { ConsoleEnv } from '../auth';
import type { OpenApproval } from '../../client/approvals';
import { openApprovalsFor, pendingFor, type ConsoleDeps } from '../read-model';
import { ago, layout } from '../views/layout';

/** What the page polls: the open approvals (a visibility query, no storage read), so a decision anywhere reloads it. */
export const pendingVersion = (open: readonly OpenApproval[]) => open.map((a) => a.revisionId).join(',');

export function pendingRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/', async (c) => {
    const open = await openApprovalsFor(deps, c.get('user'));
    const items = await pendingFor(deps, c.get('user'), { open });
    const rows = items.map(
      (i) =>
        html`<tr>
          <td>
            <a href="/revisions/${encodeURIComponent(i.revisionId)}">${i.name}</a>
            <div class="muted">${i.revisionId}</div>
          </td>
          <td>${i.scopeKey}</td>
          <td>${i.action}</td>
          <td>${i.source === 'gepa' ? 'GEPA' : i.source}</td>
          <td class="held-because">${i.risk === 'high' ? html`<strong>high risk</strong>` : ''} ${i.heldBecause.map((r) => html`<div>${r}</div>`)}</td>
          <td title="${i.createdAt}">${ago(i.createdAt)}</td>
          <td>
            ${i.expiresAt ? html`${i.expiryAction === 'reject' ? 'rejected' : 'published'} <span title="${i.expiresAt}">${ago(i.expiresAt)}</span>` : 'never (waits for a person)'}
          </td>
        </tr>`,
    );
    return c.html(
      layout(
        { title: 'Pending', session: c.get('session'), live: { url: '/live/pending', version: pendingVersion(open) } },
        items.length
          ? html`<table>
              <thead>
                <tr>
                  <th>Skill</th>
                  <th>Scope</th>
                  <th>Action</th>
                  <th>Source</th>
                  <th>Why it waits</th>
                  <th>Held</th>
                  <th>At the deadline</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
          : html`<p>Nothing waits for a decision in your scopes.</p>`,
      ),
    );
  });
  return app;
}
