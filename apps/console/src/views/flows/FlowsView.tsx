// Hiring flows: the list, each with its pipeline board and its editor (PRODUCT.md §7 Hiring flow).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { HiringFlow } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { QueryView } from '../../components/PageState.js';
import { Pager, pagesInUrl, useCursorPages } from '../../components/Pager.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { formatTime } from '../../components/format.js';
import { StageChips } from './stages.js';
import { usePositionTitles } from './positions.js';
import './flows.css';

const PAGE_SIZE = 25;

export default function FlowsView() {
  const pages = useCursorPages(pagesInUrl());
  const list = useQuery({ ...recruiting.flows.list.queryOptions({ limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }), placeholderData: keepPreviousData });
  const positionTitle = usePositionTitles();
  const columns: Array<Column<HiringFlow>> = [
    {
      header: 'Flow',
      cell: (f) => (
        <>
          <Link to={`/flows/${f.id}`} className="strong">{f.name}</Link>
          {f.description && <span className="sub hint">{f.description}</span>}
        </>
      ),
    },
    { header: 'Position', cell: (f) => (f.positionId ? positionTitle(f.positionId) : <span className="muted">—</span>) },
    { header: 'Stages', cell: (f) => <StageChips stages={f.stages} /> },
    { header: 'Created', cell: (f) => formatTime(f.createdAt) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (f) => (
        <span className="actions">
          <Link to={`/flows/${f.id}`} aria-label={`Pipeline of ${f.name}`}>Pipeline</Link>
          <Link to={`/flows/${f.id}/edit`} aria-label={`Edit flow ${f.name}`}>Edit</Link>
        </span>
      ),
    },
  ];
  return (
    <section aria-labelledby="flows-title" className="flow-list">
      <div className="card-head">
        <h1 id="flows-title">Hiring flows</h1>
        <Link to="/flows/new" className="link-button">New flow</Link>
      </div>
      <p className="lead">A flow is the stages a candidate goes through. Open a flow&apos;s pipeline to enroll candidates and move them between stages.</p>
      <section className="card" aria-label="Flows">
        <QueryView query={list} isEmpty={(d) => d.items.length === 0 && pages.page === 1} empty={<>No flows yet. <Link to="/flows/new">Create the first one</Link>.</>}>
          {(data) => (
            <>
              <DataTable caption="Hiring flows" columns={columns} rows={data.items} rowKey={(f) => f.id} />
              <Pager pages={pages} nextCursor={data.nextCursor} label="Flow pages" />
            </>
          )}
        </QueryView>
      </section>
    </section>
  );
}
