import { Link } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PositionStatus, type Position } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field } from '../../components/Field.js';
import { formatTime } from '../../components/format.js';
import { useSearchParamsNow } from '../../components/searchParams.js';
import { EMPLOYMENT_TYPE_LABEL, PositionStatusBadge } from './labels.js';

const PAGE_SIZE = 25;

/** The positions list, newest first, filtered by status through the URL (`?status=open`). */
export default function PositionsView() {
  const [params, setParams] = useSearchParamsNow();
  const status = PositionStatus.safeParse(params.get('status')).data;
  return (
    <section aria-labelledby="positions-title">
      <div className="card-head">
        <h1 id="positions-title">Positions</h1>
        <Link className="button" to="/positions/new">New position</Link>
      </div>
      <p className="lead">The jobs you interview for. A closed position takes no new interviews; the ones already scheduled go on.</p>
      {/* Another status writes the search without the page: it starts again on page 1. */}
      <PositionList key={status ?? 'all'} status={status} onStatus={(s) => setParams(s ? { status: s } : {}, { replace: true })} />
    </section>
  );
}

function PositionList({ status, onStatus }: { status: Position['status'] | undefined; onStatus: (status: string) => void }) {
  const pages = useCursorPages(pagesInUrl());
  const list = useQuery({
    ...recruiting.positions.list.queryOptions({ limit: PAGE_SIZE, ...(status ? { status } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Array<Column<Position>> = [
    { header: 'Title', cell: (p) => <Link to={`/positions/${p.id}`}>{p.title}</Link> },
    { header: 'Status', cell: (p) => <PositionStatusBadge status={p.status} /> },
    { header: 'Department', cell: (p) => p.department ?? '—' },
    { header: 'Location', cell: (p) => p.location ?? '—' },
    { header: 'Type', cell: (p) => EMPLOYMENT_TYPE_LABEL[p.employmentType] },
    { header: 'Questions', cell: (p) => (p.interviewQuestions.length ? p.interviewQuestions.length : 'default set'), className: 'num' },
    { header: 'Created', cell: (p) => formatTime(p.createdAt) },
  ];
  return (
      <section className="card" aria-labelledby="position-list-title" aria-busy={list.isFetching}>
        <div className="card-head">
          <h2 id="position-list-title">{status ? `${status === 'open' ? 'Open' : 'Closed'} positions` : 'All positions'}</h2>
          <Field label="Status">
            {(p) => (
              <select
                {...p}
                name="status"
                value={status ?? ''}
                onChange={(e) => onStatus(e.target.value)}
              >
                <option value="">All</option>
                <option value="open">Open</option>
                <option value="closed">Closed</option>
              </select>
            )}
          </Field>
        </div>
        <PagedTable query={list} pages={pages} caption="Positions" columns={columns} rowKey={(p) => p.id} empty={status ? `No ${status} positions.` : 'No positions yet. Create the first one.'} pagerLabel="Position pages" />
      </section>
  );
}
