// Paging through the services' cursor lists ({ items, nextCursor }): a stack of cursors, so
// "Previous" returns to exactly the page seen before.
//
// A list of a view keeps its page in the URL (`?cursor=…&page=3`), so a reload, a link and Back
// show that page: the cursor and page number in the search, the earlier pages' cursors in the
// history entry's state (a reload keeps it). Next and Previous push history entries. A filter
// change that writes the search without the cursor starts again on page 1 (`withoutPages`).
// A list that cannot own the URL keeps the stack in React state: `useCursorPages()`.
import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

export interface CursorPages {
  /** The cursor of the page shown (undefined: the first page). */
  cursor: string | undefined;
  /** 1-based page number. */
  page: number;
  next: (nextCursor: string) => void;
  previous: () => void;
  reset: () => void;
}

/** The search parameters a list's page is kept under. */
export interface PagesInUrl {
  cursor: string;
  page: string;
}

/** `cursor` and `page`, or `<prefix>Cursor` and `<prefix>Page` for one of several lists on a page. */
export const pagesInUrl = (prefix?: string): PagesInUrl =>
  prefix ? { cursor: `${prefix}Cursor`, page: `${prefix}Page` } : { cursor: 'cursor', page: 'page' };

/** The search without a list's page: for a filter change, which starts again on page 1. */
export function withoutPages(params: URLSearchParams, url: PagesInUrl = pagesInUrl()): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(url.cursor);
  next.delete(url.page);
  return next;
}

export function useCursorPages(url?: PagesInUrl): CursorPages {
  const inState = useStatePages();
  const inUrl = useUrlPages(url ?? pagesInUrl());
  return url ? inUrl : inState;
}

function useStatePages(): CursorPages {
  const [stack, setStack] = useState<string[]>([]);
  const next = useCallback((nextCursor: string) => setStack((s) => [...s, nextCursor]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor: stack.at(-1), page: stack.length + 1, next, previous, reset };
}

function useUrlPages(url: PagesInUrl): CursorPages {
  const location = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(location.search);
  const cursor = params.get(url.cursor) || undefined;
  const state: Record<string, unknown> = typeof location.state === 'object' && location.state !== null ? (location.state as Record<string, unknown>) : {};
  const stateKey = `pages:${url.cursor}`;
  const saved = state[stateKey];
  // The cursors of pages 2 … page-1; absent after a pasted link, when Previous goes to page 1.
  const earlier = Array.isArray(saved) ? saved.filter((c): c is string => typeof c === 'string') : [];
  const shown = Number(params.get(url.page));
  const page = cursor === undefined ? 1 : Number.isInteger(shown) && shown >= 2 ? shown : earlier.length + 2;
  const go = (to: string | undefined, toPage: number, stack: string[], replace = false) => {
    const search = withoutPages(params, url);
    if (to !== undefined) {
      search.set(url.cursor, to);
      search.set(url.page, String(toPage));
    }
    const rest = Object.fromEntries(Object.entries(state).filter(([key]) => key !== stateKey));
    void navigate(
      { pathname: location.pathname, search: search.toString() ? `?${search.toString()}` : '', hash: location.hash },
      { replace, state: stack.length ? { ...rest, [stateKey]: stack } : rest },
    );
  };
  return {
    cursor,
    page,
    next: (nextCursor) => go(nextCursor, page + 1, cursor === undefined ? [] : [...earlier, cursor]),
    previous: () => {
      if (page <= 1) return;
      const back = page > 2 ? earlier.at(-1) : undefined;
      go(back, back === undefined ? 1 : page - 1, back === undefined ? [] : earlier.slice(0, -1));
    },
    reset: () => cursor !== undefined && go(undefined, 1, [], true),
  };
}

/**
 * Previous / page number / Next under a list; hidden when everything fits on one page. At either
 * end the button is `aria-disabled`, not `disabled`: a focused button that becomes disabled drops
 * keyboard focus to the page.
 */
export function Pager({ pages, nextCursor, label = 'Pages', loading = false }: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  label?: string;
  /** The list still shows the page before (`query.isPlaceholderData`): its cursor is not this page's. */
  loading?: boolean;
}) {
  // Not hidden while loading: back on page 1 with the last page's data shown, the focused button would go.
  if (pages.page === 1 && !nextCursor && !loading) return null;
  const first = pages.page === 1;
  const last = loading || !nextCursor || nextCursor === pages.cursor;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" aria-disabled={first} onClick={() => !first && pages.previous()}>Previous</button>
      <span aria-live="polite">Page {pages.page}</span>
      <button type="button" className="secondary" aria-disabled={last} onClick={() => !last && nextCursor && pages.next(nextCursor)}>Next</button>
    </nav>
  );
}
