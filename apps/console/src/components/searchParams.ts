import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

type SetSearchParams = ReturnType<typeof useSearchParams>[1];

/**
 * The URL's query as a form control's state (a filter, a search box).
 *
 * The router renders a navigation as a React transition. A controlled input whose value comes
 * from the URL then shows its old value until that transition renders: a checkbox unticks itself
 * for a moment, and a search box can lose a keystroke or its caret on a busy machine. Writing the
 * query with `flushSync` renders the new value at once. It needs the `RouterProvider` of
 * `react-router/dom` (main.tsx).
 */
export function useSearchParamsNow(): [URLSearchParams, SetSearchParams] {
  const [params, setParams] = useSearchParams();
  const setNow = useCallback<SetSearchParams>((next, options) => setParams(next, { ...options, flushSync: true }), [setParams]);
  return [params, setNow];
}
