import { html } from 'hono/html';
import type { OutcomeRates, SkillReport } from '../../core/usage';
import { table } from './table';

const pct = (v: number | undefined) => (v === undefined ? '—' : `${(v * 100).toFixed(0)}%`);
const rate = (r: OutcomeRates) => html`${pct(r.successRate)} <span class="muted">of ${r.sessions}</span>`;

/**
 * Per revision (oldest left): load rate and success rate with and without the skill, as
 * grouped bars in an inline SVG (no script, no library).
 */
export function usageChart(skill: SkillReport) {
  const revisions = [...skill.revisions].reverse();
  const W = 640;
  const H = 200;
  const pad = 36;
  const group = (W - 2 * pad) / Math.max(1, revisions.length);
  const bar = Math.min(28, group / 4);
  const y = (v: number) => H - pad - (H - 2 * pad) * Math.min(1, Math.max(0, v));
  const series = [
    { label: 'loaded', color: '#0969da', value: (r: SkillReport['revisions'][number]) => r.loadRate },
    { label: 'success with', color: '#1a7f37', value: (r: SkillReport['revisions'][number]) => r.with.successRate },
    { label: 'success without', color: '#9a6700', value: (r: SkillReport['revisions'][number]) => r.without.successRate },
  ];
  return html`<svg
      role="img"
      aria-label="Load rate and success rate with and without ${skill.name}, per revision"
      data-testid="usage-chart"
      width="${W}"
      height="${H}"
      viewBox="0 0 ${W} ${H}"
      style="background:#fff;border:1px solid #e3e6ea"
    >
      ${[0, 0.5, 1].map((t) => html`<line x1="${pad}" x2="${W - pad}" y1="${y(t)}" y2="${y(t)}" stroke="#eee" /><text x="4" y="${y(t) + 4}" font-size="11">${pct(t)}</text>`)}
      ${revisions.map((r, i) => {
        const x0 = pad + i * group + (group - 3 * bar) / 2;
        return html`${series.map((s, k) => {
            const v = s.value(r);
            return v === undefined
              ? ''
              : html`<rect x="${x0 + k * bar}" y="${y(v)}" width="${bar - 2}" height="${y(0) - y(v)}" fill="${s.color}"
                  ><title>${r.revisionId}: ${s.label} ${pct(v)}</title></rect
                >`;
          })}<text x="${x0 + 1.5 * bar}" y="${H - pad + 14}" font-size="10" text-anchor="middle">${r.revisionId.slice(-10)}${r.live ? ' *' : ''}</text>`;
      })}
    </svg>
    <p class="muted">
      <span style="color:#0969da">■</span> load rate · <span style="color:#1a7f37">■</span> success with · <span style="color:#9a6700">■</span> success without · * live revision
    </p>`;
}

/** The usage section of a skill page: totals, the chart, and a row per revision. */
export function usageSection(skill: SkillReport | undefined, windowDays: number) {
  if (!skill || skill.offered === 0)
    return html`<h2>Usage</h2>
      <p class="muted" data-testid="usage-none">No sessions counted for this skill yet.</p>`;
  return html`<h2>Usage</h2>
    <p data-testid="usage-summary">
      Loaded in <strong>${skill.loaded}</strong> of ${skill.offered} sessions offered it (${pct(skill.loadRate)}); success with it ${rate(skill.with)}, without it
      ${rate(skill.without)}. ${skill.unused ? html`<strong class="badge">not loaded in ${windowDays} days</strong>` : ''}
    </p>
    ${usageChart(skill)}
    ${table(skill.revisions, [
      { header: 'Revision', cell: (r) => `${r.revisionId}${r.live ? ' (live)' : ''}` },
      { header: 'Offered', numeric: true, cell: (r) => r.offered },
      { header: 'Loaded', numeric: true, cell: (r) => `${r.loaded} (${pct(r.loadRate)})` },
      { header: 'Success with', numeric: true, cell: (r) => rate(r.with) },
      { header: 'Success without', numeric: true, cell: (r) => rate(r.without) },
      { header: 'Mean tokens with', numeric: true, cell: (r) => (r.with.meanTokens === undefined ? '—' : Math.round(r.with.meanTokens)) },
      { header: 'Last loaded', cell: (r) => r.lastLoadedAt ?? '—' },
    ])}`;
}
