// A cursor-paged list as every view shows one: its page states, the table (cards at 390 px) and
// the pager. The caller owns the query and the pages (`useCursorPages`).
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState, QueryView } from './PageState.js';
import { Pager, type CursorPages } from './Pager.js';
import { DataTable, type Column } from './DataTable.js';

export function PagedTable<T, E = unknown>({ query, pages, caption, columns, rowKey, empty, pagerLabel }: {
  query: UseQueryResult<{ items: T[]; nextCursor: string | null }, E>;
  pages: CursorPages;
  caption: string;
  columns: Array<Column<T>>;
  rowKey: (row: T) => string;
  /** What an empty first page says. */
  empty: ReactNode;
  /** The pager's accessible name; `<caption> pages` by default. */
  pagerLabel?: string;
}) {
  // A page past the first that cannot be read (a pasted link with a cursor that is malformed or
  // has expired): the way back to page 1, which needs no cursor.
  if (query.isError && pages.cursor !== undefined) {
    return (
      <>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} title="This page could not be loaded." />
        <p><button type="button" className="secondary" onClick={pages.reset}>Go to the first page</button></p>
      </>
    );
  }
  return (
    <QueryView query={query} isEmpty={(d) => d.items.length === 0 && pages.page === 1} empty={empty}>
      {(data) => (
        <>
          <DataTable caption={caption} columns={columns} rows={data.items} rowKey={rowKey} />
          <Pager pages={pages} nextCursor={data.nextCursor} loading={query.isPlaceholderData} label={pagerLabel ?? `${caption} pages`} />
        </>
      )}
    </QueryView>
  );
}
