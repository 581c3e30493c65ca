import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { html } from 'hono/html';
import { describe, expect, it } from 'vitest';
import { fieldTable, table } from '../../console/views/table';

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
const render = async (h: unknown) => String(await h).replace(/\s+</g, '<');

describe('console table helper', () => {
  const rows = [
    { name: HOSTILE, count: 3, link: html`<a href="/x">x</a>` },
    { name: 'plain', count: 12, link: html`<a href="/y">y</a>` },
  ];
  const columns = [
    { header: 'Name', cell: (r: (typeof rows)[number]) => r.name, className: 'who' },
    { header: 'Count', numeric: true, cell: (r: (typeof rows)[number]) => r.count },
    { header: '<b>Link</b>', cell: (r: (typeof rows)[number]) => r.link },
  ];

  it('renders a header row from the columns and a body row per item, escaping text and passing markup through', async () => {
    const out = await render(table(rows, columns));
    expect(out).toContain('<thead><tr><th>Name</th><th class="num">Count</th><th>&lt;b&gt;Link&lt;/b&gt;</th></tr></thead>');
    expect(out).toContain('<td class="who">&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</td>');
    expect(out).not.toContain('<script>');
    expect(out).not.toContain('<img');
    expect(out).toContain('<td class="num">12</td>');
    expect(out).toContain('<td><a href="/y">y</a></td>');
    expect(out.match(/<tr>/g)).toHaveLength(3);
  });

  it('shows the empty-state message instead of a table when there are no rows, escaped too', async () => {
    expect(await render(table([], columns, { empty: `Nothing ${HOSTILE}` }))).toBe(
      '<p class="muted">Nothing &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</p>',
    );
    const bare = await render(table([], columns));
    expect(bare).toContain('<thead>');
    expect(bare).toContain('<tbody></tbody>');
  });

  it('marks rows by class, omits empty cells and renders a record as label/value rows', async () => {
    const out = await render(table(rows, [{ header: 'Name', cell: (r) => (r.count > 5 ? undefined : r.name) }], { rowClass: (r) => (r.count > 5 ? 'current' : undefined) }));
    expect(out).toContain('<tr class="current"><td></td></tr>');
    expect(await render(fieldTable([['Dataset', `d@1 ${HOSTILE}`]]))).toBe(
      '<table><tbody><tr><th>Dataset</th><td>d@1 &lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;</td></tr></tbody></table>',
    );
  });

  it('is the only place in the console that writes a <table> (every page builds its tables through it)', () => {
    const root = join(__dirname, '..', '..', 'console');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    const scaffolds = sources.filter((f) => f !== join('views', 'table.ts') && /<table[\s>]/.test(readFileSync(join(root, f), 'utf8')));
    expect(scaffolds.map((f) => relative('.', join('console', f)))).toEqual([]);
  });
});
