import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * A page that is not there: an unknown path, or a well-formed id of nothing in the organization
 * (`<NotFound title="No such candidate">… <Link to="/candidates">…</Link></NotFound>`).
 */
export function NotFound({ title = 'No such page', children }: { title?: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{title}</h1>
      <p>{children ?? <>There is no such page in the console. <Link to="/">Go to the start page</Link>.</>}</p>
    </section>
  );
}

/** A well-formed id of nothing in the organization (the service's 404), with the way to its list. */
export function NoSuchResource({ what, list, listLabel }: { what: string; list: string; listLabel: string }) {
  return <NotFound title={`No such ${what}`}>Your organization has no {what} with this id. <Link to={list}>{listLabel}</Link>.</NotFound>;
}
