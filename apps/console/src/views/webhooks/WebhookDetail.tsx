import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DeliveryStatus, ReplayBody, SubscribableEvent, UpdateWebhookFields, type Delivery, type Webhook } from '@hireloop/contracts';
import { integrations, errorMessage, errorStatus } from '../../trpc.js';
import { NoSuchResource } from '../../components/NotFound.js';
import { ErrorState, Loading } from '../../components/PageState.js';
import { pagesInUrl, useCursorPages, withoutPages } from '../../components/Pager.js';
import type { Column } from '../../components/DataTable.js';
import { PagedTable } from '../../components/PagedTable.js';
import { Field, useZodForm } from '../../components/Field.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { BusyButton } from '../../components/BusyButton.js';
import { keepFocus } from '../../components/focus.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { formatTime } from '../../components/format.js';
import { useSearchParamsNow } from '../../components/searchParams.js';
import { EventsField } from './EventsField.js';
import { WebhookHealth, WebhookStatus } from './health.js';

const PAGE_SIZE = 25;

export default function WebhookDetail() {
  const { id = '' } = useParams();
  const webhook = useQuery(integrations.webhooks.get.queryOptions({ id }));
  if (webhook.isPending) return <Loading />;
  if (webhook.isError && errorStatus(webhook.error) === 404) return <NoSuchResource what="webhook" list="/webhooks" listLabel="Back to the webhooks" />;
  if (webhook.isError) {
    return (
      <section aria-labelledby="webhook-title">
        <h1 id="webhook-title">Webhook</h1>
        <ErrorState error={webhook.error} onRetry={() => void webhook.refetch()} />
        <p><Link to="/webhooks">All webhooks</Link></p>
      </section>
    );
  }
  return <WebhookPage webhook={webhook.data} />;
}

function WebhookPage({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: integrations.webhooks.get.queryKey({ id: webhook.id }) });
    void queryClient.invalidateQueries({ queryKey: integrations.webhooks.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: integrations.webhooks.deliveries.pathKey() });
  };
  return (
    <section aria-labelledby="webhook-title">
      <p className="breadcrumb"><Link to="/webhooks">Webhooks</Link> /</p>
      <h1 id="webhook-title" className="wrap">{webhook.url}</h1>
      {webhook.description && <p className="lead">{webhook.description}</p>}
      <Overview webhook={webhook} onChanged={refresh} />
      <Deliveries webhook={webhook} />
      <Replay webhook={webhook} onReplayed={refresh} />
      <EditWebhook key={webhook.id} webhook={webhook} onSaved={refresh} />
    </section>
  );
}

function Overview({ webhook, onChanged }: { webhook: Webhook; onChanged: () => void }) {
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<'rotate' | 'delete' | null>(null);
  const [tested, setTested] = useState<string | null>(null);
  const test = useMutation(integrations.webhooks.test.mutationOptions({
    onSuccess: (result) => {
      setTested(result.eventId);
      onChanged();
    },
  }));
  const rotate = useMutation(integrations.webhooks.rotateSecret.mutationOptions({
    onSuccess: (result) => {
      setConfirm(null);
      setSecret(result.secret);
    },
  }));
  const remove = useMutation(integrations.webhooks.delete.mutationOptions({
    onSuccess: () => {
      onChanged();
      void navigate('/webhooks');
    },
  }));
  const failed = test.error ?? rotate.error ?? remove.error;
  return (
    <section className="card" aria-labelledby="overview-title">
      <h2 id="overview-title">Health</h2>
      {secret && (
        <SecretOnce title="New signing secret" secret={secret} label="The webhook’s new signing secret" onDone={() => setSecret(null)}>
          <p>For 24 hours deliveries carry a signature with each secret, new and old, so you can switch without losing any.</p>
        </SecretOnce>
      )}
      <p>Status: <WebhookStatus webhook={webhook} /></p>
      <WebhookHealth stats={webhook.stats} long />
      <p className="hint">Events: {webhook.events.join(', ')} · created {formatTime(webhook.createdAt)} · updated {formatTime(webhook.updatedAt)}</p>
      <div className="actions">
        <BusyButton busy={test.isPending} onClick={() => { setTested(null); test.mutate({ id: webhook.id }); }} disabled={webhook.status !== 'enabled'}>Send a test event</BusyButton>
        <button type="button" className="secondary" onClick={() => setConfirm('rotate')}>Rotate the secret</button>
        <button type="button" className="danger" onClick={() => setConfirm('delete')}>Delete webhook</button>
      </div>
      {webhook.status !== 'enabled' && <p className="hint">Enable the webhook (below) to send it events.</p>}
      {tested && <p className="status" role="status">Test event <code>{tested}</code> queued: it shows under Deliveries.</p>}
      {failed && <p className="error" role="alert">{errorMessage(failed)}</p>}
      <ConfirmDialog open={confirm === 'rotate'} title="Rotate the signing secret?" confirmLabel="Rotate secret" danger={false} busy={rotate.isPending} onCancel={() => setConfirm(null)} onConfirm={() => rotate.mutate({ id: webhook.id })}>
        <p>A new secret is made and shown once. The old one keeps signing for 24 hours.</p>
      </ConfirmDialog>
      <ConfirmDialog open={confirm === 'delete'} title="Delete this webhook?" confirmLabel="Delete webhook" busy={remove.isPending} onCancel={() => setConfirm(null)} onConfirm={() => remove.mutate({ id: webhook.id })}>
        <p>Its pending deliveries are cancelled and <span className="wrap">{webhook.url}</span> receives nothing more. This cannot be undone.</p>
      </ConfirmDialog>
    </section>
  );
}

const STATUS_BADGE: Record<Delivery['status'], string> = { delivered: 'badge-ok', pending: 'badge-muted', retrying: 'badge-warn', failed: 'badge-danger', cancelled: 'badge-muted' };

function Deliveries({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  // The status filter and the page live in the URL (`?deliveryStatus=failed&deliveriesCursor=…`).
  const pagesUrl = pagesInUrl('deliveries');
  const pages = useCursorPages(pagesUrl);
  const [params, setParams] = useSearchParamsNow();
  const filter = DeliveryStatus.safeParse(params.get('deliveryStatus'));
  const status: Delivery['status'] | '' = filter.success ? filter.data : '';
  const setStatus = (next: Delivery['status'] | '') => {
    const search = withoutPages(params, pagesUrl);
    if (next) search.set('deliveryStatus', next);
    else search.delete('deliveryStatus');
    setParams(search, { replace: true });
  };
  // The delivery last sent again, as the service answered (its next attempt's time).
  const [retried, setRetried] = useState<Retried | null>(null);
  const list = useQuery({
    ...integrations.webhooks.deliveries.queryOptions({ webhookId: webhook.id, limit: PAGE_SIZE, ...(status ? { status } : {}), ...(pages.cursor ? { cursor: pages.cursor } : {}) }),
    placeholderData: keepPreviousData,
  });
  const retry = useMutation(integrations.webhooks.retryDelivery.mutationOptions({
    onSuccess: (delivery) => {
      setRetried(retriedAt(delivery));
      // A `pending` delivery has no Retry: when the list's new page drops the pressed button,
      // focus goes to the message.
      void queryClient.invalidateQueries({ queryKey: integrations.webhooks.deliveries.pathKey() }).then(() => keepFocus('delivery-retried'));
      void queryClient.invalidateQueries({ queryKey: integrations.webhooks.get.queryKey({ id: webhook.id }) });
    },
  }));
  const columns: Array<Column<Delivery>> = [
    { header: 'Event', cell: (d) => <><code>{d.eventType}</code><span className="sub">{d.eventId}</span></> },
    { header: 'Status', cell: (d) => <span className={`badge ${STATUS_BADGE[d.status]}`}>{d.status}</span> },
    { header: 'Attempts', cell: (d) => d.attempts, className: 'num' },
    {
      header: 'Last attempt',
      cell: (d) => (d.lastAttempt
        ? <>{d.lastAttempt.statusCode ? `HTTP ${d.lastAttempt.statusCode}` : 'no answer'} in {d.lastAttempt.latencyMs} ms{d.lastAttempt.error && <span className="sub error-text">{d.lastAttempt.error}</span>}<span className="sub">{formatTime(d.lastAttempt.at)}</span></>
        : '—'),
    },
    { header: 'Next attempt', cell: (d) => formatTime(d.nextAttemptAt) },
    { header: 'Created', cell: (d) => formatTime(d.createdAt) },
    {
      header: 'Actions',
      hiddenHeader: true,
      cell: (d) => (d.status === 'pending' ? null : (
        <BusyButton
          className="secondary small"
          aria-label={`Retry the delivery of ${d.eventType} ${d.eventId}`}
          busy={retry.isPending}
          disabled={webhook.status !== 'enabled'}
          onClick={() => { setRetried(null); retry.mutate({ webhookId: webhook.id, deliveryId: d.id }); }}
        >
          Retry
        </BusyButton>
      )),
    },
  ];
  return (
    <section className="card" aria-labelledby="deliveries-title">
      <div className="card-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <div className="actions">
          <label htmlFor="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(e) => setStatus(e.target.value as Delivery['status'] | '')}>
            <option value="">any</option>
            {DeliveryStatus.options.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
          <button type="button" className="secondary small" onClick={() => void list.refetch()}>Refresh</button>
        </div>
      </div>
      {retry.isError && <p className="error" role="alert">{errorMessage(retry.error)}</p>}
      <p className="status" role="status" id="delivery-retried" tabIndex={-1}>{retried ? <RetryQueued retried={retried} /> : ''}</p>
      <PagedTable query={list} pages={pages} caption="Deliveries" columns={columns} rowKey={(d) => d.id} empty={status ? `No ${status} deliveries.` : 'No deliveries yet: send a test event.'} />
    </section>
  );
}

/** A manual retry's answer, read when it came: the delivery goes now, or with the failing endpoint's next probe. */
interface Retried { delivery: Delivery; later: boolean }
const retriedAt = (delivery: Delivery): Retried => ({ delivery, later: delivery.nextAttemptAt !== null && Date.parse(delivery.nextAttemptAt) > Date.now() + 1000 });

function RetryQueued({ retried: { delivery, later } }: { retried: Retried }) {
  const what = <><code>{delivery.eventType}</code> ({delivery.eventId})</>;
  if (delivery.status === 'delivered') return <>The delivery of {what} is delivered.</>;
  if (later && delivery.nextAttemptAt) return <>The delivery of {what} is sent again at {formatTime(delivery.nextAttemptAt)}, with the endpoint's next probe.</>;
  return <>The delivery of {what} is sent again now.</>;
}

/** `datetime-local` value (local time) → ISO instant; '' stays ''. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : '');

function Replay({ webhook, onReplayed }: { webhook: Webhook; onReplayed: () => void }) {
  const form = useZodForm(ReplayBody);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const replay = useMutation(integrations.webhooks.replay.mutationOptions({ onSuccess: onReplayed, onError: (error) => form.fromServer(error) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const window = form.validate({ since: toInstant(since), ...(until ? { until: toInstant(until) } : {}), ...(types.length ? { types } : {}) });
    if (window) replay.mutate({ id: webhook.id, window });
  };
  return (
    <section className="card" aria-labelledby="replay-title">
      <h2 id="replay-title">Replay a window</h2>
      <p className="hint">Sends again the events of a time window (events are kept 30 days), within the types this endpoint receives.</p>
      <form onSubmit={submit} noValidate>
        <div className="grid">
          <Field label="Since" error={form.errors['since']}>
            {(p) => <input {...p} type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} />}
          </Field>
          <Field label="Until" optional hint="Default: now." error={form.errors['until']}>
            {(p) => <input {...p} type="datetime-local" value={until} onChange={(e) => setUntil(e.target.value)} />}
          </Field>
        </div>
        <Field label="Only these event types" optional hint="Hold Ctrl (⌘) to pick several; none means every type." error={form.errors['types']}>
          {(p) => (
            <select {...p} multiple size={4} value={types} onChange={(e) => setTypes([...e.target.selectedOptions].map((o) => o.value))}>
              {SubscribableEvent.options.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
          )}
        </Field>
        <p className="error" role="alert">{replay.isError && !Object.keys(form.errors).length ? errorMessage(replay.error) : ''}</p>
        <BusyButton type="submit" busy={replay.isPending}>Replay</BusyButton>
      </form>
      {replay.isSuccess && <p className="status" role="status">{replay.data.count} deliveries queued.</p>}
    </section>
  );
}

/**
 * The edit form stays as typed while the page's webhook refreshes (a save, a test event): it sends
 * only what differs from the webhook it was filled from, so a change made meanwhile elsewhere (an
 * endpoint disabled by a 410) is not undone by a save of its description.
 */
function EditWebhook({ webhook, onSaved }: { webhook: Webhook; onSaved: () => void }) {
  const form = useZodForm(UpdateWebhookFields);
  const [filled, setFilled] = useState(webhook);
  const [unchanged, setUnchanged] = useState(false);
  const [url, setUrl] = useState(webhook.url);
  const [description, setDescription] = useState(webhook.description ?? '');
  const [events, setEvents] = useState<string[]>(webhook.events);
  const [enabled, setEnabled] = useState(webhook.status === 'enabled');
  const update = useMutation(integrations.webhooks.update.mutationOptions({
    onSuccess: (saved) => {
      setFilled(saved);
      onSaved();
    },
    onError: (error) => form.fromServer(error),
  }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setUnchanged(false);
    const now = { url: url.trim(), events, description: description.trim() ? description : null, status: enabled ? 'enabled' : 'disabled' };
    const was = { url: filled.url, events: filled.events, description: filled.description ?? null, status: filled.status };
    const differs = Object.fromEntries(Object.entries(now).filter(([k, v]) => JSON.stringify(v) !== JSON.stringify(was[k as keyof typeof was])));
    const changes = form.validate(differs);
    if (!changes) return;
    if (Object.keys(changes).length === 0) setUnchanged(true);
    else update.mutate({ id: webhook.id, changes });
  };
  return (
    <section className="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit</h2>
      <form onSubmit={submit} noValidate>
        <Field label="Endpoint URL" error={form.errors['url']}>
          {(p) => <input {...p} type="url" maxLength={2048} spellCheck={false} value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label="Description" optional error={form.errors['description']}>
          {(p) => <input {...p} type="text" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        <EventsField value={events} onChange={setEvents} error={form.errors['events']} />
        <label className="check field">
          <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
          <span className="hint">(re-enabling clears the failure run; disabling cancels pending deliveries)</span>
        </label>
        <p className="error" role="alert">{update.isError && !Object.keys(form.errors).length ? errorMessage(update.error) : ''}</p>
        <BusyButton type="submit" busy={update.isPending}>Save changes</BusyButton>
        <p className="status" role="status">{unchanged ? 'Nothing changed.' : update.isSuccess ? 'Saved.' : ''}</p>
      </form>
    </section>
  );
}
