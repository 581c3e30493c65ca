import { html } from 'hono/html';
import type { IterationLogEntry } from '../../core';

/**
 * Validation score per iteration as an inline SVG: one dot per evaluated child
 * (green accepted, red rejected), the seed's score as a dashed line.
 */
export function validationChart(log: readonly IterationLogEntry[], seedMean: number | undefined) {
  const points = log.filter((e) => e.childValidationMean !== undefined);
  const W = 640;
  const H = 220;
  const pad = 36;
  const maxIter = Math.max(1, ...log.map((e) => e.iteration));
  const x = (i: number) => pad + ((W - 2 * pad) * i) / maxIter;
  const y = (s: number) => H - pad - (H - 2 * pad) * Math.min(1, Math.max(0, s));
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return html`<svg role="img" aria-label="Validation score per iteration" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" style="background:#fff;border:1px solid #e3e6ea">
      ${ticks.map((t) => html`<line x1="${pad}" x2="${W - pad}" y1="${y(t)}" y2="${y(t)}" stroke="#eee" /><text x="4" y="${y(t) + 4}" font-size="11">${t.toFixed(2)}</text>`)}
      ${Array.from({ length: maxIter + 1 }, (_, i) => i)
        .filter((i) => maxIter <= 20 || i % Math.ceil(maxIter / 20) === 0)
        .map((i) => html`<text x="${x(i)}" y="${H - pad + 14}" font-size="10" text-anchor="middle">${i}</text>`)}
      <text x="${W / 2}" y="${H - 4}" font-size="11" text-anchor="middle">iteration</text>
      ${seedMean !== undefined ? html`<line x1="${pad}" x2="${W - pad}" y1="${y(seedMean)}" y2="${y(seedMean)}" stroke="#555" stroke-dasharray="4 3" /><text x="${W - pad}" y="${y(seedMean) - 4}" font-size="11" text-anchor="end">seed ${seedMean.toFixed(3)}</text>` : ''}
      ${points.map(
        (e) =>
          html`<circle cx="${x(e.iteration)}" cy="${y(e.childValidationMean!)}" r="5" fill="${e.accepted ? '#1a7f37' : '#cf222e'}"
            ><title>iteration ${e.iteration}: ${e.childValidationMean!.toFixed(3)} (${e.outcome})</title></circle
          >`,
      )}
    </svg>
    <p class="muted"><span style="color:#1a7f37">●</span> accepted child · <span style="color:#cf222e">●</span> rejected child · dashed: seed</p>`;
}
