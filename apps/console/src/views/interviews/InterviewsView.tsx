// Interviews: the organization's interviews, newest first, filtered by the status the client sees
// (PRODUCT.md §7: an overdue invite is `expired` at once), in pages; each opens its detail.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { InterviewStatus, type Interview } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { Pager, pagesInUrl, useCursorPages } from '../../components/Pager.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { formatTime } from '../../components/format.js';
import { useSearchParamsNow } from '../../components/searchParams.js';
import { INTERVIEW_STATUSES, STATUS_LABEL, StatusBadge } from './status.js';

const PAGE_SIZE = 25;

export default function InterviewsView() {
  const [params, setParams] = useSearchParamsNow();
  const parsed = InterviewStatus.safeParse(params.get('status'));
  const status = parsed.success ? parsed.data : undefined;
  const pages = useCursorPages(pagesInUrl());
  const list = useQuery({
    ...recruiting.interviews.list.queryOptions({ limit: PAGE_SIZE, ...(status ? { status } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const filter = (next: string) => {
    // The status alone: another filter starts again on page 1.
    setParams(next ? { status: next } : {});
  };
  const columns: Array<Column<Interview>> = [
    { header: 'Interview', cell: (i) => <Link to={`/interviews/${i.id}`}>{i.title}</Link> },
    { header: 'Candidate', cell: (i) => <span>{i.candidate.name} <span className="hint">{i.candidate.email}</span></span> },
    { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
    { header: 'Scheduled', cell: (i) => formatTime(i.createdAt) },
    { header: 'Expires', cell: (i) => formatTime(i.expiresAt) },
  ];
  return (
    <section aria-labelledby="interviews-title">
      <h1 id="interviews-title">Interviews</h1>
      <p className="lead">AI interviews sent to candidates. The AI recommends; a person decides on each scorecard.</p>
      <p><Link to="/interviews/new">Schedule an interview</Link></p>
      <section className="card" aria-labelledby="interviews-list-title">
        <div className="card-head">
          <h2 id="interviews-list-title">{status ? STATUS_LABEL[status] : 'All interviews'}</h2>
          <label className="check">
            Status{' '}
            <select name="status" value={status ?? ''} onChange={(e) => filter(e.target.value)}>
              <option value="">Any status</option>
              {INTERVIEW_STATUSES.map((s) => <option key={s} value={s}>{STATUS_LABEL[s]}</option>)}
            </select>
          </label>
        </div>
        <QueryView query={list} isEmpty={(d) => d.items.length === 0 && pages.page === 1} empty={status ? `No ${STATUS_LABEL[status].toLowerCase()} interviews.` : 'No interviews yet. Schedule one to send a candidate an invite.'}>
          {(data) => (
            <>
              <DataTable caption="Interviews" columns={columns} rows={data.items} rowKey={(i) => i.id} />
              <Pager pages={pages} nextCursor={data.nextCursor} loading={list.isPlaceholderData} label="Interview pages" />
            </>
          )}
        </QueryView>
      </section>
    </section>
  );
}
