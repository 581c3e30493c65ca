import { html } from 'hono/html';
import type { Html } from './layout';

/** What a cell shows. Text and numbers are escaped by `html`; markup built with `html` passes through as it is. */
export type Cell = Html | string | number | null | undefined | readonly Cell[];

export interface Column<Row> {
  /** Header text (escaped); empty for a column of actions. */
  header: string;
  cell: (row: Row) => Cell;
  /** Right-aligned with tabular figures, header included. */
  numeric?: boolean;
  /** Extra class on every body cell of the column (a hook for tests and styles). */
  className?: string;
}

export interface TableOptions<Row> {
  /** Shown instead of the table when there are no rows (a muted paragraph); without it an empty table is rendered. */
  empty?: string;
  /** A class for one row, e.g. `current` to mark the row a page is about. */
  rowClass?: (row: Row) => string | undefined;
}

const classAttribute = (...names: (string | false | undefined)[]) => {
  const value = names.filter(Boolean).join(' ');
  return value ? html` class="${value}"` : '';
};

/** One table scaffold for every console page: a header row from the columns, a body row per item. */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[], options: TableOptions<Row> = {}): Html {
  if (rows.length === 0 && options.empty !== undefined) return html`<p class="muted">${options.empty}</p>`;
  return html`<table>
    <thead>
      <tr>
        ${columns.map((c) => html`<th${classAttribute(c.numeric && 'num')}>${c.header}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row) =>
          html`<tr${classAttribute(options.rowClass?.(row))}>
            ${columns.map((c) => html`<td${classAttribute(c.numeric && 'num', c.className)}>${c.cell(row)}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** A record shown as label/value rows (a header cell per row), for one object rather than a list. */
export function fieldTable(fields: readonly (readonly [label: string, value: Cell])[]): Html {
  return html`<table>
    <tbody>
      ${fields.map(
        ([label, value]) =>
          html`<tr>
            <th>${label}</th>
            <td>${value}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
