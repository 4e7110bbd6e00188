import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AuditFilters } from '@hireloop/contracts';
import { identity } from '../../trpc.js';
import { useCursorPages } from '../../components/Pager.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { auditColumns } from './columns.js';

const PAGE_SIZE = 25;
type Filters = { action?: string; actorId?: string; resourceId?: string };

/** The organization's audit log (PRODUCT.md §10 "Accountability"): every write, who made it, filtered and paged. */
export default function AuditView() {
  const pages = useCursorPages();
  const [filters, setFilters] = useState<Filters>({});
  const list = useQuery({
    ...identity.auditEvents.list.queryOptions({ limit: PAGE_SIZE, ...filters, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const apply = (next: Filters) => {
    setFilters(next);
    pages.reset();
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="lead">
        Every change made through the API, this console or the operator tools, with who made it and from which network. Kept one year.
      </p>
      <FilterForm onApply={apply} />
      <section className="card" aria-labelledby="audit-list-title">
        <h2 id="audit-list-title">Events</h2>
        <PagedTable
          query={list}
          pages={pages}
          caption="Audit events"
          columns={auditColumns({ withResource: true })}
          rowKey={(e) => e.id}
          empty={Object.keys(filters).length ? 'No event matches these filters.' : 'Nothing has been recorded yet.'}
          pagerLabel="Audit log pages"
        />
      </section>
    </section>
  );
}

function FilterForm({ onApply }: { onApply: (filters: Filters) => void }) {
  const form = useZodForm(AuditFilters);
  const [action, setAction] = useState('');
  const [actorId, setActorId] = useState('');
  const [resourceId, setResourceId] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(Object.entries({ action, actorId, resourceId }).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v));
    const parsed = form.validate(given);
    if (parsed) onApply(given);
  };
  return (
    <section className="card" aria-labelledby="audit-filter-title">
      <h2 id="audit-filter-title">Filter</h2>
      <form onSubmit={submit} noValidate role="search">
        <Field label="Action" hint="For example candidate.updated or api_key.revoked." optional error={form.errors['action']}>
          {(p) => <input {...p} name="action" type="text" maxLength={100} value={action} onChange={(e) => setAction(e.target.value)} />}
        </Field>
        <Field label="Actor id" hint="A key (key_…), a user (usr_…) or a tool (cli:keys)." optional error={form.errors['actorId']}>
          {(p) => <input {...p} name="actorId" type="text" maxLength={100} value={actorId} onChange={(e) => setActorId(e.target.value)} />}
        </Field>
        <Field label="Resource id" hint="A candidate, position, webhook… id." optional error={form.errors['resourceId']}>
          {(p) => <input {...p} name="resourceId" type="text" maxLength={100} value={resourceId} onChange={(e) => setResourceId(e.target.value)} />}
        </Field>
        <button type="submit">Apply filters</button>
      </form>
    </section>
  );
}
