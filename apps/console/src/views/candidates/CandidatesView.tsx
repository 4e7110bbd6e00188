import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SearchCandidatesQuery, type Candidate } from '@hireloop/contracts';
import { recruiting } from '../../trpc.js';
import { pagesInUrl, useCursorPages, withoutPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, fieldErrorsOf } from '../../components/Field.js';
import { formatTime } from '../../components/format.js';
import { dayEnd, dayStart } from '../../components/dates.js';
import { useSearchParamsNow } from '../../components/searchParams.js';

const PAGE_SIZE = 25;
/** How long typing pauses before the list follows the search box. */
const SEARCH_DELAY_MS = 300;

/**
 * The candidates list: search by name or e-mail (word prefixes, see docs/api.md "Lists"),
 * filters by creation date and external id, keyset pages. The search and filters live in the
 * URL (`?q=ann&from=2026-01-01`), and so is the page, so a search can be linked to and Back returns to it.
 */
export default function CandidatesView() {
  const [params, setParams] = useSearchParamsNow();
  const filters = { q: params.get('q') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '', externalId: params.get('externalId') ?? '' };
  const setFilter = (name: keyof typeof filters, value: string) => {
    // Another search starts again on page 1.
    const next = withoutPages(params);
    if (value.trim()) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const query = SearchCandidatesQuery.omit({ limit: true, cursor: true }).safeParse({
    ...(filters.q.trim() ? { search: filters.q } : {}),
    ...(filters.from ? { createdAfter: dayStart(filters.from) } : {}),
    ...(filters.to ? { createdBefore: dayEnd(filters.to) } : {}),
    ...(filters.externalId.trim() ? { externalId: filters.externalId } : {}),
  });
  const errors = query.success ? {} : fieldErrorsOf(query.error.issues);
  const filtered = Boolean(filters.q || filters.from || filters.to || filters.externalId);

  return (
    <section aria-labelledby="candidates-title">
      <div className="card-head">
        <h1 id="candidates-title">Candidates</h1>
        <Link className="button" to="/candidates/new">New candidate</Link>
      </div>
      <p className="lead">Everyone your organization has interviewed, enrolled or added, newest first.</p>
      <section className="card" aria-labelledby="candidate-filters-title">
        <h2 id="candidate-filters-title" className="visually-hidden">Search and filters</h2>
        <div className="grid">
          <SearchBox value={filters.q} onChange={(q) => setFilter('q', q)} error={errors['search']} />
          <Field label="External id" optional error={errors['externalId']}>
            {(p) => <input {...p} type="text" name="externalId" value={filters.externalId} onChange={(e) => setFilter('externalId', e.target.value)} />}
          </Field>
          <Field label="Created from" optional error={errors['createdAfter']}>
            {(p) => <input {...p} type="date" name="from" value={filters.from} onChange={(e) => setFilter('from', e.target.value)} />}
          </Field>
          <Field label="Created until" optional error={errors['createdBefore']}>
            {(p) => <input {...p} type="date" name="to" value={filters.to} onChange={(e) => setFilter('to', e.target.value)} />}
          </Field>
        </div>
        {filtered && <button type="button" className="secondary small" onClick={() => setParams(new URLSearchParams(), { replace: true })}>Clear search and filters</button>}
      </section>
      {query.success ? (
        // Keyed by the filters: another search shows a fresh list.
        <CandidateList key={JSON.stringify(query.data)} filters={query.data} filtered={filtered} />
      ) : (
        <p className="error" role="alert">Correct the search or filters above.</p>
      )}
    </section>
  );
}

function CandidateList({ filters, filtered }: { filters: Omit<SearchCandidatesQuery, 'limit' | 'cursor'>; filtered: boolean }) {
  const pages = useCursorPages(pagesInUrl());
  const list = useQuery({
    ...recruiting.candidates.list.queryOptions({ ...filters, limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Array<Column<Candidate>> = [
    { header: 'Name', cell: (c) => <Link to={`/candidates/${c.id}`}>{c.name}</Link> },
    { header: 'E-mail', cell: (c) => c.email },
    { header: 'Phone', cell: (c) => c.phone ?? '—' },
    { header: 'External id', cell: (c) => (c.externalId ? <code>{c.externalId}</code> : '—') },
    { header: 'Created', cell: (c) => formatTime(c.createdAt) },
  ];
  return (
    <section className="card" aria-labelledby="candidate-list-title" aria-busy={list.isFetching}>
      <h2 id="candidate-list-title">{filtered ? 'Matching candidates' : 'All candidates'}</h2>
      <PagedTable query={list} pages={pages} caption="Candidates" columns={columns} rowKey={(c) => c.id} empty={filtered ? 'No candidate matches. Every word of the search must begin a word of the name or e-mail.' : 'No candidates yet. Add one, or create them through the API.'} pagerLabel="Candidate pages" />
    </section>
  );
}

/** The search box: the list follows as the user types (after a short pause) or presses Enter. */
function SearchBox({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const [text, setText] = useState(value);
  // The URL can change under the box (Clear, Back): follow it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => latest.current(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(text);
  };
  return (
    <form role="search" onSubmit={submit}>
      <Field label="Search by name or e-mail" hint="Each word matches the start of a word: “ann smi” finds Ann Smith." error={error}>
        {(p) => <input {...p} type="search" name="q" autoComplete="off" value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
    </form>
  );
}
