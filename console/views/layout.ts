import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ConsoleSession } from '../sessions';

export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1d2b3a;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#cfe3ff;text-decoration:none}header a:hover{text-decoration:underline}
header .who{margin-left:auto;font-size:.9rem}header form{display:inline}
main{padding:1rem 1.5rem;max-width:1100px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e3e6ea;padding:.35rem .5rem;text-align:left;font-size:.92rem;vertical-align:top}
th{background:#eef1f4}th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}tr.current{font-weight:600}
pre{background:#fff;border:1px solid #e3e6ea;padding:.6rem;overflow:auto;font-size:.85rem;white-space:pre-wrap}
.diff .add{background:#e6ffec;color:#05501f}.diff .remove{background:#ffebe9;color:#82071e}.diff .hunk{color:#6e7781}
.flash{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .8rem;margin:.5rem 0}
.badge{display:inline-block;padding:0 .4rem;border-radius:.6rem;font-size:.8rem;background:#ddd}
.badge.active{background:#c6f6d5}.badge.pending_approval,.badge.pending_eval{background:#fde68a}.badge.rejected,.badge.failed,.badge.timed_out{background:#fecaca}.badge.archived{background:#e5e7eb}
.card{background:#fff;border:1px solid #e3e6ea;padding:.6rem .9rem;margin:.6rem 0}
button{padding:.3rem .8rem;cursor:pointer}textarea{width:100%;max-width:40rem}
.muted{color:#6e7781;font-size:.85rem}
`;

export interface LayoutOptions {
  title: string;
  session?: ConsoleSession;
  /** A URL the page polls and the answer it was rendered from; it reloads when the answer changes (a decision made elsewhere). */
  live?: { url: string; version: string };
}

export function layout(opts: LayoutOptions, body: Html): Html {
  const s = opts.session;
  const flash = s?.flash;
  if (s) s.flash = undefined;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${opts.title} · Evolution console</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style>
${opts.live ? html`<script src="/static/live.js" defer></script>` : ''}</head>
<body${opts.live ? html` data-live="${opts.live.url}" data-live-version="${opts.live.version}"` : ''}>
<header><strong>Evolution console</strong>
${
  s
    ? html`<a href="/">Pending</a><a href="/skills">Skills</a><a href="/experiments">Experiments</a><a href="/activity">Activity</a><a href="/jobs">Jobs</a>
        <span class="who"
          >${s.user.name} (${s.user.role})
          <form method="post" action="/logout"><input type="hidden" name="_csrf" value="${s.csrf}" /><button>Log out</button></form></span
        >`
    : ''
}
</header>
<main>${flash ? html`<div class="flash" role="status">${flash}</div>` : ''}<h1>${opts.title}</h1>${body}</main>
</body></html>`;
}

export const csrfField = (s: ConsoleSession) => html`<input type="hidden" name="_csrf" value="${s.csrf}" />`;

export const badge = (status: string) => html`<span class="badge ${status}">${status.replace('_', ' ')}</span>`;

export function ago(iso: string, now = Date.now()): string {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  return s < 0 ? `in ${duration(-s)}` : `${duration(s)} ago`;
}

export function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

export function scopeQuery(scopeKey: string): string {
  return `scope=${encodeURIComponent(scopeKey)}`;
}
