import { Link } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CandidateEnrollment } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { formatTime } from '../../components/format.js';

const PAGE_SIZE = 10;

const STATUS_BADGE: Record<CandidateEnrollment['status'], string> = { active: 'badge badge-ok', completed: 'badge', withdrawn: 'badge badge-muted' };

/** The hiring flows the candidate is enrolled in, with the stage they are at (newest first). */
export function CandidateEnrollments({ candidateId }: { candidateId: string }) {
  const pages = useCursorPages(pagesInUrl('enrollments'));
  const list = useQuery({
    ...recruiting.flows.candidateEnrollments.queryOptions({ candidateId, limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Array<Column<CandidateEnrollment>> = [
    { header: 'Flow', cell: (e) => <Link to={`/flows/${e.flow.id}`}>{e.flow.name}</Link> },
    { header: 'Stage', cell: (e) => `${e.stage.name} (${e.stage.kind.replace('_', ' ')})` },
    { header: 'Status', cell: (e) => <span className={STATUS_BADGE[e.status]}>{e.status}</span> },
    { header: 'Enrolled', cell: (e) => formatTime(e.enrolledAt) },
    { header: 'Last moved', cell: (e) => formatTime(e.movedAt) },
  ];
  return (
    <section className="card" aria-labelledby="candidate-enrollments-title">
      <h2 id="candidate-enrollments-title">Hiring flows</h2>
      <PagedTable query={list} pages={pages} caption="Hiring flows of this candidate" columns={columns} rowKey={(e) => e.id} empty="Not enrolled in any hiring flow." pagerLabel="Hiring flow pages" />
    </section>
  );
}
