// Paging through the services' cursor lists ({ items, nextCursor }): a stack of cursors, so
// "Previous" returns to exactly the page seen before. Reset it when a filter changes.
import { useCallback, useState } from 'react';

export interface CursorPages {
  /** The cursor of the page shown (undefined: the first page). */
  cursor: string | undefined;
  /** 1-based page number. */
  page: number;
  next: (nextCursor: string) => void;
  previous: () => void;
  reset: () => void;
}

export function useCursorPages(): CursorPages {
  const [stack, setStack] = useState<string[]>([]);
  const next = useCallback((nextCursor: string) => setStack((s) => [...s, nextCursor]), []);
  const previous = useCallback(() => setStack((s) => s.slice(0, -1)), []);
  const reset = useCallback(() => setStack([]), []);
  return { cursor: stack.at(-1), page: stack.length + 1, next, previous, reset };
}

/** Previous / page number / Next under a list; hidden when everything fits on one page. */
export function Pager({ pages, nextCursor, label = 'Pages' }: { pages: CursorPages; nextCursor: string | null | undefined; label?: string }) {
  if (pages.page === 1 && !nextCursor) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" onClick={pages.previous} disabled={pages.page === 1}>Previous</button>
      <span aria-live="polite">Page {pages.page}</span>
      <button type="button" className="secondary" onClick={() => nextCursor && pages.next(nextCursor)} disabled={!nextCursor}>Next</button>
    </nav>
  );
}
