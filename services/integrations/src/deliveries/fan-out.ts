import { newId, sql, type Transaction } from '@hireloop/platform';
import { ID_PREFIXES } from '@hireloop/contracts';
import type { IntegrationsDB } from '../db.js';
import { subscribers } from '../webhooks/webhooks.queries.js';
import type { DeliverySettings } from './delivery-settings.js';
import { retriesQueued } from './retry-queue.js';

/** NOTIFY channel that wakes the dispatchers when deliveries are committed. */
export const DELIVERIES_CHANNEL = 'hireloop_deliveries';
/** NOTIFY channel that wakes the writers of deferred deliveries (deferred-fan-out.ts). */
export const DEFERRED_FAN_OUT_CHANNEL = 'hireloop_deferred_fan_out';

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

/**
 * An endpoint a delivery is queued for; whether it is `failing` (its circuit breaker open), and
 * whether it is otherwise unhealthy: its last attempt failed, or an attempt to it has been in
 * flight longer than SLOW_ATTEMPT_MS (slow).
 */
export interface Subscriber {
  id: string;
  failing: boolean;
  unhealthy?: boolean;
}

/**
 * An endpoint with an attempt in flight this long is slow (a healthy receiver answers in
 * milliseconds; PRODUCT.md §8 gives it 15 s): its new deliveries would wait behind its cap
 * anyway, so the fan-out defers them too (deferred-fan-out.ts).
 */
export const SLOW_ATTEMPT_MS = 1000;

/** Of these endpoints, the slow ones: an attempt in flight (a live lease) taken more than SLOW_ATTEMPT_MS ago. */
async function slowEndpoints(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'leaseMs'>, webhookIds: string[]): Promise<Set<string>> {
  if (webhookIds.length === 0 || settings.leaseMs <= SLOW_ATTEMPT_MS) return new Set();
  const { rows } = await sql<{ webhook_id: string }>`
    select distinct webhook_id from integrations.deliveries
    where webhook_id = any(${webhookIds}::text[]) and lease_until is not null
      and lease_until > now() and lease_until < now() + make_interval(secs => ${(settings.leaseMs - SLOW_ATTEMPT_MS) / 1000})`.execute(trx);
  return new Set(rows.map((r) => r.webhook_id));
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

/** A delivery row to write: `at` is its creation and first due time. */
export interface NewDelivery {
  organizationId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'retrying' | 'cancelled';
  at: Date;
}

/**
 * Writes delivery rows in one statement over arrays, not a statement of VALUES tuples per row (a
 * storm's ingest call is 100 events × 100 endpoints: 10 000 rows, whose 90 000 parameters the
 * query builder compiled one by one); an existing (event, endpoint) pair is left alone. Answers
 * how many rows were written; the endpoints given retrying rows are woken once (retry-queue.ts).
 */
export async function writeDeliveries(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, deliveries: NewDelivery[]): Promise<number> {
  if (deliveries.length === 0) return 0;
  const { rows } = await sql<{ queued: number; retrying: string[] | null }>`
    with queued as (
      insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, next_attempt_at, created_at)
      select d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, ${settings.taskQueue}, d.status,
        case when d.status = 'cancelled' then null else d.at end, d.at
      from unnest(${deliveries.map((d) => newId(ID_PREFIXES.delivery, d.at.getTime()))}::text[], ${deliveries.map((d) => d.organizationId)}::text[],
                  ${deliveries.map((d) => d.webhookId)}::text[], ${deliveries.map((d) => d.eventId)}::text[], ${deliveries.map((d) => d.eventType)}::text[],
                  ${deliveries.map((d) => d.status)}::text[], ${deliveries.map((d) => d.at.toISOString())}::timestamptz[])
        as d(id, organization_id, webhook_id, event_id, event_type, status, at)
      on conflict (event_id, webhook_id) do nothing
      returning webhook_id, status
    )
    select count(*)::integer as queued, array_agg(distinct webhook_id) filter (where status = 'retrying') as retrying from queued`.execute(trx);
  const result = rows[0];
  await retriesQueued(trx, settings, result?.retrying ?? []);
  if (deliveries.some((d) => d.status === 'pending')) await notifyDispatchers(trx);
  return result?.queued ?? 0;
}

/**
 * `queueDeliveries` for many events at once. The deliveries to healthy endpoints are written
 * now, pending (the dispatchers make their first attempt). Those to failing endpoints skip that
 * attempt, those to slow ones would wait behind their cap, and those to an endpoint whose last
 * attempt failed likely fail too: they are deferred, one row per event, which the delivery lane's
 * writer turns into deliveries at a bounded rate (deferred-fan-out.ts). Answers how many
 * deliveries were queued, written or deferred.
 */
async function queueFanOut(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, fanOut: EventFanOut[]): Promise<number> {
  const now = new Date();
  const direct: NewDelivery[] = [];
  const deferred: { organizationId: string; eventId: string; eventType: string; webhookIds: string[] }[] = [];
  for (const { organizationId, event, endpoints } of fanOut) {
    const held: string[] = [];
    for (const endpoint of endpoints) {
      if ((endpoint.failing || endpoint.unhealthy) && event.type !== 'webhook.ping') held.push(endpoint.id);
      else direct.push({ organizationId, webhookId: endpoint.id, eventId: event.id, eventType: event.type, status: 'pending', at: now });
    }
    if (held.length) deferred.push({ organizationId, eventId: event.id, eventType: event.type, webhookIds: held });
  }
  const queued = await writeDeliveries(trx, settings, direct);
  if (deferred.length === 0) return queued;
  const { rows } = await sql<{ held: number }>`
    with kept as (
      insert into integrations.deferred_fan_out (event_id, organization_id, event_type, task_queue, webhook_ids, created_at)
      select d.event_id, d.organization_id, d.event_type, ${settings.taskQueue}, array(select jsonb_array_elements_text(d.webhook_ids)), ${now}::timestamptz
      from unnest(${deferred.map((d) => d.eventId)}::text[], ${deferred.map((d) => d.organizationId)}::text[], ${deferred.map((d) => d.eventType)}::text[],
                  ${deferred.map((d) => JSON.stringify(d.webhookIds))}::jsonb[])
        as d(event_id, organization_id, event_type, webhook_ids)
      on conflict (event_id) do nothing
      returning cardinality(webhook_ids) as held
    )
    select coalesce(sum(held), 0)::integer as held from kept`.execute(trx);
  await sql`select pg_notify(${DEFERRED_FAN_OUT_CHANNEL}, 'integrations')`.execute(trx);
  return queued + (rows[0]?.held ?? 0);
}

/**
 * Fan-out (PRODUCT.md §8): each published event is kept, and one delivery per subscribed,
 * enabled endpoint is queued in the same transaction (written, or deferred for failing and
 * unhealthy endpoints: queueFanOut); the dispatchers are woken at its commit. Idempotent by event id: a
 * republished event queues nothing new. The batch is a few statements whatever its size (keep,
 * subscribers per organization and type, the slow ones, queue, defer), plus the wakes.
 */
export async function ingestEvents(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue' | 'breakerFailures' | 'leaseMs'>, events: (EventEnvelope & { organizationId: string })[]): Promise<number> {
  const kept = await keepEvents(trx, events.filter((e) => e.type !== 'webhook.ping'));
  const subscribed = new Map<string, Subscriber[]>();
  const fanOut: EventFanOut[] = [];
  for (const { organizationId, ...event } of events) {
    // Kept now, and only once: an id twice in one batch fans out the first time.
    if (!kept.delete(event.id)) continue;
    const key = `${organizationId} ${event.type}`;
    let endpoints = subscribed.get(key);
    if (!endpoints) {
      endpoints = (await subscribers(trx, organizationId, event.type)).map((w) => ({ id: w.id, failing: w.consecutive_failures >= settings.breakerFailures, unhealthy: w.consecutive_failures > 0 }));
      subscribed.set(key, endpoints);
    }
    fanOut.push({ organizationId, event, endpoints });
  }
  const slow = await slowEndpoints(trx, settings, [...new Set([...subscribed.values()].flat().filter((e) => !e.unhealthy).map((e) => e.id))]);
  for (const endpoints of subscribed.values()) for (const endpoint of endpoints) endpoint.unhealthy ||= slow.has(endpoint.id);
  return queueFanOut(trx, settings, fanOut);
}
