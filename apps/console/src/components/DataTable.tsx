// A table on wide screens that becomes a list of cards below 720 px (CSS: each cell shows its
// column name from data-label), so nothing overflows the page at 390 px and actions stay reachable.
import type { ReactNode } from 'react';

export interface Column<T> {
  /** Column header (also the label of the cell in the narrow layout). */
  header: string;
  cell: (row: T) => ReactNode;
  /** Screen-reader-only header (actions). */
  hiddenHeader?: boolean;
  className?: string;
}

export function DataTable<T>({ caption, columns, rows, rowKey }: {
  caption: string;
  columns: Array<Column<T>>;
  rows: T[];
  rowKey: (row: T) => string;
}) {
  return (
    <div className="table-wrap">
      <table className="data-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.className}>
                {c.hiddenHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) => (
                <td key={c.header} data-label={c.hiddenHeader ? '' : c.header} className={c.className}>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
