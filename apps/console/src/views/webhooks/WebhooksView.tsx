import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CreateWebhookBody, type CreatedWebhook, type Webhook } from '@hireloop/contracts';
import { integrations, errorMessage } from '../../trpc.js';
import { pagesInUrl, useCursorPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { formatTime } from '../../components/format.js';
import { EventsField } from './EventsField.js';
import { WebhookHealth, WebhookStatus } from './health.js';
import { BusyButton } from '../../components/BusyButton.js';

const PAGE_SIZE = 25;

export default function WebhooksView() {
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="lead">
        Hireloop sends signed POST requests to your endpoints when things happen (Standard Webhooks: verify the
        <code> webhook-signature</code> header with the endpoint’s secret). Failed deliveries are retried with backoff.
      </p>
      {created && (
        <SecretOnce title={`Signing secret of ${created.url}`} secret={created.secret} label="The webhook’s signing secret" onDone={() => setCreated(null)}>
          <p>Use it to verify the signatures of our requests. <Link to={`/webhooks/${created.id}`}>Open the webhook</Link>.</p>
        </SecretOnce>
      )}
      <WebhookList />
      <CreateWebhook onCreated={setCreated} />
    </section>
  );
}

function WebhookList() {
  const pages = useCursorPages(pagesInUrl());
  const list = useQuery({ ...integrations.webhooks.list.queryOptions({ limit: PAGE_SIZE, ...(pages.cursor ? { cursor: pages.cursor } : {}) }), placeholderData: keepPreviousData });
  const columns: Array<Column<Webhook>> = [
    { header: 'Endpoint', cell: (w) => <><Link to={`/webhooks/${w.id}`} className="wrap">{w.url}</Link>{w.description && <span className="sub">{w.description}</span>}</> },
    { header: 'Events', cell: (w) => <ul className="chips">{w.events.map((e) => <li className="chip" key={e}>{e}</li>)}</ul> },
    { header: 'Status', cell: (w) => <WebhookStatus webhook={w} /> },
    { header: 'Health', cell: (w) => <WebhookHealth stats={w.stats} /> },
    { header: 'Created', cell: (w) => formatTime(w.createdAt) },
  ];
  return (
    <section className="card" aria-labelledby="webhooks-list-title">
      <h2 id="webhooks-list-title">Endpoints</h2>
      <PagedTable query={list} pages={pages} caption="Webhooks" columns={columns} rowKey={(w) => w.id} empty="No webhooks yet." />
    </section>
  );
}

function CreateWebhook({ onCreated }: { onCreated: (webhook: CreatedWebhook) => void }) {
  const queryClient = useQueryClient();
  const form = useZodForm(CreateWebhookBody);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['*']);
  const create = useMutation(integrations.webhooks.create.mutationOptions({
    onSuccess: (webhook) => {
      onCreated(webhook);
      setUrl('');
      setDescription('');
      setEvents(['*']);
      void queryClient.invalidateQueries({ queryKey: integrations.webhooks.list.pathKey() });
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = form.validate({ url: url.trim(), events, ...(description.trim() ? { description } : {}) });
    if (input) create.mutate(input);
  };
  return (
    <section className="card" aria-labelledby="webhook-form-title">
      <h2 id="webhook-form-title">Register a webhook</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Endpoint URL" error={form.errors['url']}>
          {(p) => <input {...p} name="url" type="url" maxLength={2048} placeholder="https://example.com/hireloop" spellCheck={false} value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label="Description" optional error={form.errors['description']}>
          {(p) => <input {...p} name="description" type="text" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <EventsField value={events} onChange={setEvents} error={form.errors['events']} />
        <p className="error" role="alert">{create.isError && !Object.keys(form.errors).length ? errorMessage(create.error) : ''}</p>
        <BusyButton type="submit" busy={create.isPending}>Register webhook</BusyButton>
      </form>
    </section>
  );
}
