import { newId, sql, type Transaction } from '@hireloop/platform';
import { ID_PREFIXES } from '@hireloop/contracts';
import type { IntegrationsDB } from '../db.js';
import { subscribers } from '../webhooks/webhooks.queries.js';
import type { DeliverySettings } from './delivery-settings.js';
import { retriesQueued } from './retry-queue.js';

/** NOTIFY channel that wakes the dispatchers when deliveries are committed. */
export const DELIVERIES_CHANNEL = 'hireloop_deliveries';

export interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

/** Wakes every dispatcher once the transaction commits. */
export async function notifyDispatchers(trx: Transaction<IntegrationsDB>): Promise<void> {
  await sql`select pg_notify(${DELIVERIES_CHANNEL}, 'integrations')`.execute(trx);
}

/** Keeps an event (30 days: GET /events, replays); false when it was already kept (a republish). */
export async function keepEvent(trx: Transaction<IntegrationsDB>, organizationId: string, event: EventEnvelope): Promise<boolean> {
  return (await keepEvents(trx, [{ ...event, organizationId }])).has(event.id);
}

/**
 * Keeps a batch of events in one statement; the ids of those kept now (not kept before). The
 * envelope is stored as it came, as JSON text cast in Postgres.
 */
async function keepEvents(trx: Transaction<IntegrationsDB>, events: (EventEnvelope & { organizationId: string })[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    insert into integrations.events (id, organization_id, type, payload, created_at)
    select e.id, e.organization_id, e.type, e.payload::jsonb, e.created_at
    from unnest(${events.map((e) => e.id)}::text[], ${events.map((e) => e.organizationId)}::text[], ${events.map((e) => e.type)}::text[],
                ${events.map(({ organizationId: _, ...event }) => JSON.stringify(event))}::text[], ${events.map((e) => new Date(e.createdAt).toISOString())}::timestamptz[])
      as e(id, organization_id, type, payload, created_at)
    on conflict (id) do nothing
    returning id`.execute(trx);
  return new Set(rows.map((r) => r.id));
}

/** An endpoint a delivery is queued for, and whether it is `failing` (its circuit breaker open). */
export interface Subscriber {
  id: string;
  failing: boolean;
}

/** An event with the endpoints its deliveries go to. */
interface EventFanOut {
  organizationId: string;
  event: Pick<EventEnvelope, 'id' | 'type'>;
  endpoints: Subscriber[];
}

/**
 * Queues one delivery per endpoint, due now; an existing (event, endpoint) pair is left alone.
 * A failing endpoint's delivery skips the first attempt and joins its retry queue (its loop's
 * probe decides when it goes), but for a `webhook.ping`, which is always attempted at once.
 */
export function queueDeliveries(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, organizationId: string, event: Pick<EventEnvelope, 'id' | 'type'>, endpoints: Subscriber[]): Promise<number> {
  return queueFanOut(trx, settings, [{ organizationId, event, endpoints }]);
}

/**
 * `queueDeliveries` for many events at once: every (event, endpoint) row in one statement over
 * arrays, not a statement of VALUES tuples per event (a storm's ingest call is 100 events × 100
 * endpoints: 10 000 rows, whose 90 000 parameters the query builder compiled one by one).
 * Answers how many rows were queued; the endpoints given retrying rows are woken once.
 */
async function queueFanOut(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, fanOut: EventFanOut[]): Promise<number> {
  const now = new Date();
  const ids: string[] = [], organizations: string[] = [], webhooks: string[] = [], events: string[] = [], types: string[] = [], statuses: string[] = [];
  for (const { organizationId, event, endpoints } of fanOut) {
    for (const endpoint of endpoints) {
      ids.push(newId(ID_PREFIXES.delivery, now.getTime()));
      organizations.push(organizationId);
      webhooks.push(endpoint.id);
      events.push(event.id);
      types.push(event.type);
      statuses.push(endpoint.failing && event.type !== 'webhook.ping' ? 'retrying' : 'pending');
    }
  }
  if (ids.length === 0) return 0;
  const { rows } = await sql<{ queued: number; retrying: string[] | null }>`
    with queued as (
      insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, next_attempt_at, created_at)
      select d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, ${settings.taskQueue}, d.status, ${now}::timestamptz, ${now}::timestamptz
      from unnest(${ids}::text[], ${organizations}::text[], ${webhooks}::text[], ${events}::text[], ${types}::text[], ${statuses}::text[])
        as d(id, organization_id, webhook_id, event_id, event_type, status)
      on conflict (event_id, webhook_id) do nothing
      returning webhook_id, status
    )
    select count(*)::integer as queued, array_agg(distinct webhook_id) filter (where status = 'retrying') as retrying from queued`.execute(trx);
  const result = rows[0];
  await retriesQueued(trx, settings, result?.retrying ?? []);
  return result?.queued ?? 0;
}

/**
 * Fan-out (PRODUCT.md §8): each published event is kept, and one delivery row per subscribed,
 * enabled endpoint is written in the same transaction; the dispatchers are woken at its commit.
 * Idempotent by event id: a republished event queues nothing new. The batch is three statements
 * whatever its size (keep, subscribers per organization and type, queue), plus the wakes.
 */
export async function ingestEvents(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue' | 'breakerFailures'>, events: (EventEnvelope & { organizationId: string })[]): Promise<number> {
  const kept = await keepEvents(trx, events.filter((e) => e.type !== 'webhook.ping'));
  const subscribed = new Map<string, Subscriber[]>();
  const fanOut: EventFanOut[] = [];
  for (const { organizationId, ...event } of events) {
    // Kept now, and only once: an id twice in one batch fans out the first time.
    if (!kept.delete(event.id)) continue;
    const key = `${organizationId} ${event.type}`;
    let endpoints = subscribed.get(key);
    if (!endpoints) {
      endpoints = (await subscribers(trx, organizationId, event.type)).map((w) => ({ id: w.id, failing: w.consecutive_failures >= settings.breakerFailures }));
      subscribed.set(key, endpoints);
    }
    fanOut.push({ organizationId, event, endpoints });
  }
  const queued = await queueFanOut(trx, settings, fanOut);
  if (queued > 0) await notifyDispatchers(trx);
  return queued;
}
