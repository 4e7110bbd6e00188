import { Link, useParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Candidate, Evaluation, Interview } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { formatTime } from '../../components/format.js';
import { PositionTitle } from '../positions/PositionTitle.js';
import { DECISION_LABEL, RECOMMENDATION_LABEL, StatusBadge } from '../interviews/status.js';
import { CandidateEnrollments } from './CandidateEnrollments.js';
import { AuditTrail } from '../audit/AuditTrail.js';

const PAGE_SIZE = 10;

/** `candidates/:id`: who the person is, their interviews, evaluations, enrollments and audit trail. */
export default function CandidateProfileView() {
  const { id = '' } = useParams();
  const candidate = useQuery(recruiting.candidates.get.queryOptions({ id }));
  return (
    <section aria-labelledby="candidate-title">
      <p><Link to="/candidates">← Candidates</Link></p>
      <QueryView query={candidate} loading="Loading the candidate…" notFound={<NoSuchResource what="candidate" list="/candidates" listLabel="Back to the candidates" />}>
        {(c) => (
          <>
            <div className="card-head">
              <h1 id="candidate-title">{c.name}</h1>
              <Link className="button" to={`/candidates/${c.id}/edit`}>Edit</Link>
            </div>
            <Details candidate={c} />
            <Interviews candidateId={c.id} />
            <Evaluations candidateId={c.id} />
            <CandidateEnrollments candidateId={c.id} />
            <AuditTrail resourceId={c.id} />
          </>
        )}
      </QueryView>
    </section>
  );
}

function Details({ candidate: c }: { candidate: Candidate }) {
  const metadata = Object.entries(c.metadata);
  return (
    <section className="card" aria-labelledby="candidate-details-title">
      <h2 id="candidate-details-title">Details</h2>
      <dl className="details">
        <dt>E-mail</dt>
        <dd><a href={`mailto:${c.email}`}>{c.email}</a></dd>
        <dt>Phone</dt>
        <dd>{c.phone ?? '—'}</dd>
        <dt>External id</dt>
        <dd>{c.externalId ? <code>{c.externalId}</code> : '—'}</dd>
        <dt>Metadata</dt>
        <dd>
          {metadata.length ? (
            <ul className="chips">{metadata.map(([key, value]) => <li className="chip" key={key}><strong>{key}</strong> {value}</li>)}</ul>
          ) : '—'}
        </dd>
        <dt>Id</dt>
        <dd><code>{c.id}</code></dd>
        <dt>Created</dt>
        <dd>{formatTime(c.createdAt)}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(c.updatedAt)}</dd>
      </dl>
    </section>
  );
}

function Interviews({ candidateId }: { candidateId: string }) {
  const pages = useCursorPages(pagesInUrl('interviews'));
  const list = useQuery({
    ...recruiting.interviews.list.queryOptions({ candidateId, limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Array<Column<Interview>> = [
    { header: 'Interview', cell: (i) => <Link to={`/interviews/${i.id}`}>{i.title}</Link> },
    { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
    { header: 'Position', cell: (i) => <PositionTitle id={i.positionId} /> },
    { header: 'Created', cell: (i) => formatTime(i.createdAt) },
    { header: 'Expires', cell: (i) => formatTime(i.expiresAt) },
  ];
  return (
    <section className="card" aria-labelledby="candidate-interviews-title">
      <h2 id="candidate-interviews-title">Interviews</h2>
      <PagedTable query={list} pages={pages} caption="Interviews of this candidate" columns={columns} rowKey={(i) => i.id} empty="No interviews yet." pagerLabel="Interview pages" />
    </section>
  );
}

function Evaluations({ candidateId }: { candidateId: string }) {
  const pages = useCursorPages(pagesInUrl('evaluations'));
  const list = useQuery({
    ...recruiting.evaluations.list.queryOptions({ candidateId, limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Array<Column<Evaluation>> = [
    { header: 'Interview', cell: (e) => <Link to={`/interviews/${e.interviewId}`} aria-label={`Scorecard of interview ${e.interviewId}`}><code>{e.interviewId}</code></Link> },
    { header: 'Status', cell: (e) => e.status },
    { header: 'Score', cell: (e) => (e.overallScore === null ? '—' : `${e.overallScore} / 100`), className: 'num' },
    { header: 'AI recommendation', cell: (e) => (e.recommendation ? RECOMMENDATION_LABEL[e.recommendation] : '—') },
    { header: 'Decision', cell: (e) => (e.review ? `${DECISION_LABEL[e.review.decision]} (${e.review.reviewer.name || e.review.reviewer.type})` : 'not reviewed yet') },
    { header: 'Summary', cell: (e) => e.summary ?? e.error?.message ?? '—' },
  ];
  return (
    <section className="card" aria-labelledby="candidate-evaluations-title">
      <h2 id="candidate-evaluations-title">Evaluations</h2>
      <p className="hint">The AI recommends; a person decides. Open an interview's scorecard to review it.</p>
      <PagedTable query={list} pages={pages} caption="Evaluations of this candidate" columns={columns} rowKey={(e) => e.interviewId} empty="No evaluations yet: one appears when the candidate submits an interview." pagerLabel="Evaluation pages" />
    </section>
  );
}
