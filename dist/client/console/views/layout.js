"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.badge = exports.csrfField = void 0;
exports.layout = layout;
exports.ago = ago;
exports.duration = duration;
exports.scopeQuery = scopeQuery;
const html_1 = require("hono/html");
const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header{background:#1d2b3a;color:#fff;padding:.6rem 1.2rem;display:flex;gap:1.2rem;align-items:center}
header a{color:#cfe3ff;text-decoration:none}header a:hover{text-decoration:underline}
header .who{margin-left:auto;font-size:.9rem}header form{display:inline}
main{padding:1rem 1.5rem;max-width:1100px}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e3e6ea;padding:.35rem .5rem;text-align:left;font-size:.92rem;vertical-align:top}
th{background:#eef1f4}
pre{background:#fff;border:1px solid #e3e6ea;padding:.6rem;overflow:auto;font-size:.85rem;white-space:pre-wrap}
.diff .add{background:#e6ffec;color:#05501f}.diff .remove{background:#ffebe9;color:#82071e}.diff .hunk{color:#6e7781}
.flash{background:#fff8c5;border:1px solid #d4a72c;padding:.5rem .8rem;margin:.5rem 0}
.badge{display:inline-block;padding:0 .4rem;border-radius:.6rem;font-size:.8rem;background:#ddd}
.badge.active{background:#c6f6d5}.badge.pending_approval,.badge.pending_eval{background:#fde68a}.badge.rejected{background:#fecaca}.badge.archived{background:#e5e7eb}
.card{background:#fff;border:1px solid #e3e6ea;padding:.6rem .9rem;margin:.6rem 0}
button{padding:.3rem .8rem;cursor:pointer}textarea{width:100%;max-width:40rem}
.muted{color:#6e7781;font-size:.85rem}
`;
function layout(opts, body) {
    const s = opts.session;
    const flash = s?.flash;
    if (s)
        s.flash = undefined;
    return (0, html_1.html) `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${opts.title} · Evolution console</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style>
${opts.live ? (0, html_1.html) `<script src="/static/live.js" defer></script>` : ''}</head>
<body${opts.live ? (0, html_1.html) ` data-live="${opts.live.url}" data-live-version="${opts.live.version}"` : ''}>
<header><strong>Evolution console</strong>
${s ? (0, html_1.html) `<a href="/">Pending</a><a href="/skills">Skills</a><a href="/experiments">Experiments</a><a href="/activity">Activity</a>
<span class="who">${s.user.name} (${s.user.role})
<form method="post" action="/logout"><input type="hidden" name="_csrf" value="${s.csrf}"><button>Log out</button></form></span>` : ''}
</header>
<main>${flash ? (0, html_1.html) `<div class="flash" role="status">${flash}</div>` : ''}<h1>${opts.title}</h1>${body}</main>
</body></html>`;
}
const csrfField = (s) => (0, html_1.html) `<input type="hidden" name="_csrf" value="${s.csrf}">`;
exports.csrfField = csrfField;
const badge = (status) => (0, html_1.html) `<span class="badge ${status}">${status.replace('_', ' ')}</span>`;
exports.badge = badge;
function ago(iso, now = Date.now()) {
    const s = Math.round((now - Date.parse(iso)) / 1000);
    return s < 0 ? `in ${duration(-s)}` : `${duration(s)} ago`;
}
function duration(seconds) {
    if (seconds < 90)
        return `${seconds} s`;
    if (seconds < 5400)
        return `${Math.round(seconds / 60)} min`;
    if (seconds < 48 * 3600)
        return `${Math.round(seconds / 3600)} h`;
    return `${Math.round(seconds / 86400)} d`;
}
function scopeQuery(scopeKey) {
    return `scope=${encodeURIComponent(scopeKey)}`;
}
//# sourceMappingURL=layout.js.map