// Page states every view shows the same way: loading, empty, not found, error with retry.
import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorCode, errorDetails, errorMessage, errorStatus } from '../trpc.js';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return <p className="loading" role="status" aria-live="polite">{label}</p>;
}

/** Retry only where it may help: a network fault or a 5xx, never a refusal (4xx). */
export function ErrorState({ error, onRetry, title = 'This could not be loaded.' }: { error: unknown; onRetry?: () => void; title?: string }) {
  const status = errorStatus(error);
  const retryable = status === undefined || status >= 500;
  return (
    <div className="error-state" role="alert">
      <p><strong>{title}</strong> {errorMessage(error)}</p>
      {onRetry && retryable && <button type="button" className="secondary" onClick={onRetry}>Retry</button>}
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/**
 * The page's id names nothing: a well-formed id of nothing (404), or a malformed one (the id
 * refused as input, e.g. `/candidates/nope`): either way there is no such thing to show.
 */
const namesNothing = (error: unknown) => errorStatus(error) === 404 || (errorCode(error) === 'validation_failed' && errorDetails(error).some((d) => d.path === 'id'));

/**
 * A query's three states, then its data: `<QueryView query={q} isEmpty={(d) => d.items.length === 0}
 * empty="No keys yet.">{(data) => …}</QueryView>`. A page's own resource passes `notFound`, shown
 * when the service answers 404 (a well-formed id of nothing), with a way back instead of Retry.
 */
export function QueryView<T, E = unknown>({ query, isEmpty, empty, children, loading, notFound }: {
  query: UseQueryResult<T, E>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  loading?: string;
  notFound?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading {...(loading ? { label: loading } : {})} />;
  if (query.isError && notFound && namesNothing(query.error)) return <>{notFound}</>;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <EmptyState>{empty ?? 'Nothing here yet.'}</EmptyState>;
  return <>{children(query.data)}</>;
}
