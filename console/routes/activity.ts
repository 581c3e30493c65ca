import { Hono } from 'hono';
import { html } from 'hono/html';
import { AuditActionSchema } from '../../core';
import type { SessionAuditEvent } from '../../core/governance';
import type { ConsoleEnv } from '../auth';
import { activityFor, visibleScopes, type ActivityFilter, type ConsoleDeps } from '../read-model';
import { layout } from '../views/layout';
import { table } from '../views/table';
import { auditTable } from './revision';

/** Deltas a session stepped over after repeated failed reviews: nothing was learnt from them. */
function quarantineTable(entries: SessionAuditEvent[]) {
  return html`<h2>Quarantined deltas</h2>
    ${table(entries, [
      { header: 'When', cell: (e) => e.at },
      { header: 'Scope', cell: (e) => e.scopeKey },
      { header: 'Session', cell: (e) => e.sessionId },
      { header: 'Job', cell: (e) => html`<code>${e.jobId}</code>` },
      { header: 'Failed reviews', cell: (e) => e.failures.map((f) => html`<div>${f.reason}</div>`) },
    ])}`;
}

export function activityFilter(q: (name: string) => string | undefined): ActivityFilter {
  const v = (name: string) => q(name)?.trim() || undefined;
  return { scopeKey: v('scope'), skillId: v('skill'), action: v('action'), actor: v('actor') };
}

export function activityRoutes(deps: ConsoleDeps) {
  const app = new Hono<ConsoleEnv>();
  app.get('/activity', async (c) => {
    const user = c.get('user');
    const filter = activityFilter((n) => c.req.query(n));
    const [scopes, { events, quarantines, metrics }] = await Promise.all([visibleScopes(deps.store, user), activityFor(deps, user, filter)]);
    const counterNames = Object.keys(Object.values(metrics)[0] ?? {});
    const form = html`<form method="get" action="/activity" class="card">
      <label
        >Scope
        <select name="scope">
          <option value="">all</option>
          ${scopes.map((s) => html`<option value="${s}" ${s === filter.scopeKey ? ' selected' : ''}>${s}</option>`)}
        </select></label
      >
      <label>Skill <input name="skill" value="${filter.skillId ?? ''}" size="18" /></label>
      <label
        >Action
        <select name="action">
          <option value="">any</option>
          ${AuditActionSchema.options.map((a) => html`<option${a === filter.action ? ' selected' : ''}>${a}</option>`)}
        </select></label
      >
      <label>Actor <input name="actor" value="${filter.actor ?? ''}" size="12" /></label> <button>Filter</button>
    </form>`;
    return c.html(
      layout(
        { title: 'Activity', session: c.get('session') },
        html`<h2>Governance counters</h2>
          ${table(counterNames, [
            { header: 'Counter', cell: (n) => n },
            ...Object.entries(metrics).map(([scope, m]) => ({ header: scope, numeric: true, cell: (n: string) => m[n as keyof typeof m] })),
          ])}
          ${quarantines.length ? quarantineTable(quarantines) : ''}
          <h2>Audit log</h2>
          ${form}${auditTable(events)}`,
      ),
    );
  });
  return app;
}
