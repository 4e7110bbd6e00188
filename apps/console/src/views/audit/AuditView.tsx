import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AuditFilters } from '@hireloop/contracts';
import { identity } from '../../trpc.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { dayEnd, dayStart } from '../../components/dates.js';
import { useSearchParamsNow } from '../../components/searchParams.js';
import { auditColumns } from './columns.js';

const PAGE_SIZE = 25;
/** The filters as the URL holds them (`?action=candidate.updated&from=2026-11-01`): days, not instants. */
const FILTER_NAMES = ['action', 'actorId', 'resourceId', 'from', 'to'] as const;
type FilterValues = Record<(typeof FILTER_NAMES)[number], string>;

/** The list's filters from the form's values: the days become instants (from midnight to the next). */
function auditFilters(values: FilterValues): AuditFilters {
  return Object.fromEntries(
    Object.entries({ action: values.action, actorId: values.actorId, resourceId: values.resourceId, createdAfter: values.from && dayStart(values.from), createdBefore: values.to && dayEnd(values.to) }).filter(([, v]) => v),
  );
}

/**
 * The organization's audit log (PRODUCT.md §10 "Accountability"): every write, who made it,
 * filtered and paged. The filters live in the URL, so a filtered log can be linked to.
 */
export default function AuditView() {
  const pages = useCursorPages(pagesInUrl());
  const [params, setParams] = useSearchParamsNow();
  const values = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ''])) as FilterValues;
  const parsed = AuditFilters.safeParse(auditFilters(values));
  const filters = parsed.success ? parsed.data : {};
  const list = useQuery({
    ...identity.auditEvents.list.queryOptions({ limit: PAGE_SIZE, ...filters, ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const apply = (next: FilterValues) => {
    // The filters alone: other filters start again on page 1.
    setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)));
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p className="lead">
        Every change made through the API, this console or the operator tools, with who made it and from which network. Kept one year.
      </p>
      {/* Keyed by the URL: Back and a pasted link show their own filters in the form. */}
      <FilterForm key={params.toString()} initial={values} onApply={apply} />
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

function FilterForm({ initial, onApply }: { initial: FilterValues; onApply: (values: FilterValues) => void }) {
  const form = useZodForm(AuditFilters);
  const [values, setValues] = useState(initial);
  const set = (name: keyof FilterValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value }));
  const [orderError, setOrderError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as FilterValues;
    const order = given.from && given.to && given.to < given.from ? 'Pick a day on or after "Created from".' : undefined;
    setOrderError(order);
    if (form.validate(auditFilters(given)) && !order) onApply(given);
  };
  return (
    <section className="card" aria-labelledby="audit-filter-title">
      <h2 id="audit-filter-title">Filter</h2>
      <form onSubmit={submit} noValidate role="search">
        <Field label="Action" hint="For example candidate.updated or api_key.revoked." optional error={form.errors['action']}>
          {(p) => <input {...p} name="action" type="text" maxLength={100} value={values.action} onChange={set('action')} />}
        </Field>
        <Field label="Actor id" hint="A key (key_…), a user (usr_…), a tool (cli:keys) or the invite page (invite)." optional error={form.errors['actorId']}>
          {(p) => <input {...p} name="actorId" type="text" maxLength={100} value={values.actorId} onChange={set('actorId')} />}
        </Field>
        <Field label="Resource id" hint="A candidate, position, webhook… id." optional error={form.errors['resourceId']}>
          {(p) => <input {...p} name="resourceId" type="text" maxLength={100} value={values.resourceId} onChange={set('resourceId')} />}
        </Field>
        <Field label="Created from" hint="From the start of this day, your time." optional error={form.errors['createdAfter']}>
          {(p) => <input {...p} name="from" type="date" value={values.from} onChange={set('from')} />}
        </Field>
        <Field label="Created until" hint="To the end of this day." optional error={form.errors['createdBefore'] ?? orderError}>
          {(p) => <input {...p} name="to" type="date" value={values.to} onChange={set('to')} />}
        </Field>
        <button type="submit">Apply filters</button>
      </form>
    </section>
  );
}
