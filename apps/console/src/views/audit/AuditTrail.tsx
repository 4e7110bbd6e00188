import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { identity } from '../../trpc.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import { PagedTable } from '../../components/PagedTable.js';
import { auditColumns } from './columns.js';

/**
 * The audit trail of one resource (a candidate, a position, a webhook…): who did what to it, and
 * when, newest first. For the resource's own page: `<AuditTrail resourceId={candidate.id} />`.
 */
export function AuditTrail({ resourceId, title = 'Audit trail' }: { resourceId: string; title?: string }) {
  const pages = useCursorPages(pagesInUrl('audit'));
  const list = useQuery({
    ...identity.auditEvents.list.queryOptions({ limit: 10, resourceId, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
    // Writes to the resource go through other procedures; its trail is read afresh on each visit.
    refetchOnMount: 'always',
  });
  return (
    <section className="card" aria-labelledby={`audit-trail-${resourceId}`}>
      <h2 id={`audit-trail-${resourceId}`}>{title}</h2>
      <PagedTable
        query={list}
        pages={pages}
        caption={`Audit trail of ${resourceId}`}
        columns={auditColumns({ withResource: false })}
        rowKey={(e) => e.id}
        empty="Nothing has been recorded for this yet."
        pagerLabel="Audit trail pages"
      />
    </section>
  );
}
