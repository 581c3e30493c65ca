import { html } from 'hono/html';

/** A unified diff as lines coloured by kind (every line escaped). */
export function diffView(diff: string) {
  if (!diff) return html`<p class="muted">No change to SKILL.md.</p>`;
  const lines = diff
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => {
      const kind = line.startsWith('@@') ? 'hunk' : line.startsWith('+') && !line.startsWith('+++') ? 'add' : line.startsWith('-') && !line.startsWith('---') ? 'remove' : 'equal';
      return html`<span class="${kind}">${line}</span> `;
    });
  return html`<pre class="diff" data-testid="diff">${lines}</pre>`;
}
