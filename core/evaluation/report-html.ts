import type { EvaluationReport } from './report';
import type { Interval } from './stats';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const ci = (i: Interval, f: (v: number) => string = pct) => `${f(i.mean)} [${f(i.low)}, ${f(i.high)}]`;
const num = (v: number) => v.toFixed(0);

/** Pass rate per arm and phase: a bar with its 95% interval as a whisker. */
function passRateChart(r: EvaluationReport): string {
  const rows = r.summaries;
  const width = 520;
  const barH = 18;
  const left = 170;
  const scale = (v: number) => left + Math.max(0, Math.min(1, v)) * (width - left - 20);
  const height = rows.length * (barH + 8) + 30;
  const bars = rows
    .map((s, i) => {
      const y = 10 + i * (barH + 8);
      return [
        `<text x="4" y="${y + 13}" font-size="12">${esc(`${s.arm} · ${s.phase}`)}</text>`,
        `<rect x="${left}" y="${y}" width="${scale(s.passRate.mean) - left}" height="${barH}" fill="${s.arm === 'baseline' ? '#999' : s.arm === 'online' ? '#3a7bd5' : '#2a9d5c'}"/>`,
        `<line x1="${scale(s.passRate.low)}" x2="${scale(s.passRate.high)}" y1="${y + barH / 2}" y2="${y + barH / 2}" stroke="#000" stroke-width="2"/>`,
        `<text x="${scale(s.passRate.mean) + 4}" y="${y + 13}" font-size="11">${pct(s.passRate.mean)}</text>`,
      ].join('');
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="pass rate by arm and phase">${bars}<text x="${left}" y="${height - 4}" font-size="10">0%</text><text x="${width - 40}" y="${height - 4}" font-size="10">100%</text></svg>`;
}

/** Pass-rate difference to the baseline with its paired 95% interval, around a zero line. */
function differenceChart(r: EvaluationReport): string {
  const rows = r.summaries.filter((s) => s.vsBaseline);
  if (!rows.length) return '<p>No arm to compare with the baseline.</p>';
  const width = 520;
  const left = 170;
  const rowH = 24;
  const height = rows.length * rowH + 30;
  const x = (v: number) => left + ((Math.max(-1, Math.min(1, v)) + 1) / 2) * (width - left - 20);
  const marks = rows
    .map((s, i) => {
      const d = s.vsBaseline!.passRate;
      const y = 16 + i * rowH;
      const color = s.vsBaseline!.verdict === 'better' ? '#2a9d5c' : s.vsBaseline!.verdict === 'worse' ? '#c0392b' : '#666';
      return `<text x="4" y="${y + 4}" font-size="12">${esc(`${s.arm} · ${s.phase}`)}</text><line x1="${x(d.low)}" x2="${x(d.high)}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="3"/><circle cx="${x(d.mean)}" cy="${y}" r="5" fill="${color}"/>`;
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img" aria-label="pass rate difference to baseline"><line x1="${x(0)}" x2="${x(0)}" y1="4" y2="${height - 16}" stroke="#000" stroke-dasharray="3,3"/>${marks}<text x="${left}" y="${height - 4}" font-size="10">−100 pp</text><text x="${x(0) - 4}" y="${height - 4}" font-size="10">0</text><text x="${width - 50}" y="${height - 4}" font-size="10">+100 pp</text></svg>`;
}

/** The report as one self-contained HTML page (inline SVG, no script). */
export function renderReportHtml(r: EvaluationReport): string {
  const summaryRows = r.summaries
    .map(
      (s) =>
        `<tr><td>${esc(s.arm)}</td><td>${esc(s.phase)}</td><td>${s.episodes}</td><td>${ci(s.passRate)}</td><td>${ci(s.quality)}</td><td>${ci(s.promptTokens, num)}</td><td>${ci(s.completionTokens, num)}</td><td>${ci(s.skillLoadRate)}</td><td>${s.judgeQuality ? ci(s.judgeQuality) : '—'}</td><td>${
          s.vsBaseline ? `${ci(s.vsBaseline.passRate)} <b>${s.vsBaseline.verdict}</b>` : '—'
        }</td></tr>`,
    )
    .join('');
  const caseRows = r.cases
    .map((c) => `<tr><td>${esc(c.arm)}</td><td>${esc(c.phase)}</td><td>${esc(c.caseId)}</td><td>${c.wins.length}</td><td>${c.losses.length}</td><td>${c.ties}</td></tr>`)
    .join('');
  const negative = r.negativeTransfer.length
    ? `<ul>${r.negativeTransfer.map((n) => `<li>${esc(`${n.arm} · ${n.phase} · ${n.caseId} · seed ${n.seed}: ${n.notes.join('; ')}`)}</li>`).join('')}</ul>`
    : '<p>None: no case the baseline passed was failed by another arm.</p>';
  const totals = r.totals
    .map(
      (t) =>
        `<tr><td>${esc(t.arm)}</td><td>${t.modelCalls}</td><td>${t.promptTokens}</td><td>${t.completionTokens}</td><td>${t.setup.modelCalls} calls, ${t.setup.promptTokens + t.setup.completionTokens} tokens</td><td>${esc(t.skills.map((s) => s.name).join(', ') || '—')}</td><td>${t.judge ? `${t.judge.modelCalls} calls, ${t.judge.promptTokens + t.judge.completionTokens} tokens` : '—'}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Evaluation ${esc(r.runId)} · ${esc(r.family)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:1100px}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left}th{background:#f4f4f4}</style></head><body>
<h1>Evaluation ${esc(r.runId)}: ${esc(r.family)}</h1>
<p>Agent model <code>${esc(r.model.agent)}</code> at <code>${esc(r.model.baseURL)}</code>; family built so that the learned skill <b>${esc(r.expectedEffect)}</b>. Generated ${esc(r.generatedAt)}.
Intervals are 95% t-intervals over per-seed means; differences are paired by seed against the baseline.${
    r.model.judge ? ` Judge model <code>${esc(r.model.judge)}</code>: its quality score is shown beside the grader's, not mixed into it.` : ''
  }</p>
<h2>Pass rate</h2>${passRateChart(r)}
<h2>Pass rate minus baseline</h2>${differenceChart(r)}
<h2>Per arm and phase</h2><table><tr><th>arm</th><th>phase</th><th>episodes</th><th>pass rate</th><th>quality</th><th>prompt tokens/episode</th><th>completion tokens/episode</th><th>skill_load rate</th><th>judge quality</th><th>pass rate − baseline</th></tr>${summaryRows}</table>
<h2>End-to-end cost per arm</h2><table><tr><th>arm</th><th>model calls</th><th>prompt tokens</th><th>completion tokens</th><th>of which learning/optimization</th><th>skills</th><th>judge (separate)</th></tr>${totals}</table>
<h2>Per case: wins and losses against the baseline</h2><table><tr><th>arm</th><th>phase</th><th>case</th><th>wins</th><th>losses</th><th>ties</th></tr>${caseRows}</table>
<h2>Negative transfer</h2>${negative}
</body></html>
`;
}
