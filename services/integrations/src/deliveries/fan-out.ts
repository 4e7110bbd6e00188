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
  const row = await trx
    .insertInto('integrations.events')
    .values({ id: event.id, organization_id: organizationId, type: event.type, payload: JSON.stringify(event), created_at: new Date(event.createdAt) })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** An endpoint a delivery is queued for, and whether it is `failing` (its circuit breaker open). */
export interface Subscriber {
  id: string;
  failing: boolean;
}

/**
 * Queues one delivery per endpoint, due now; an existing (event, endpoint) pair is left alone.
 * A failing endpoint's delivery skips the first attempt and joins its retry queue (its loop's
 * probe decides when it goes), but for a `webhook.ping`, which is always attempted at once.
 */
export async function queueDeliveries(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, organizationId: string, event: Pick<EventEnvelope, 'id' | 'type'>, endpoints: Subscriber[]): Promise<number> {
  if (endpoints.length === 0) return 0;
  const now = new Date();
  const held = (e: Subscriber) => e.failing && event.type !== 'webhook.ping';
  const rows = await trx
    .insertInto('integrations.deliveries')
    .values(endpoints.map((endpoint) => ({
      id: newId(ID_PREFIXES.delivery, now.getTime()),
      organization_id: organizationId,
      webhook_id: endpoint.id,
      event_id: event.id,
      event_type: event.type,
      task_queue: settings.taskQueue,
      status: held(endpoint) ? ('retrying' as const) : ('pending' as const),
      next_attempt_at: now,
      created_at: now,
    })))
    .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
    .returning(['webhook_id', 'status'])
    .execute();
  await retriesQueued(trx, settings, rows.filter((r) => r.status === 'retrying').map((r) => r.webhook_id));
  return rows.length;
}

/**
 * Fan-out (PRODUCT.md §8): each published event is kept, and one delivery row per subscribed,
 * enabled endpoint is written in the same transaction; the dispatchers are woken at its commit.
 * Idempotent by event id: a republished event queues nothing new.
 */
export async function ingestEvents(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue' | 'breakerFailures'>, events: (EventEnvelope & { organizationId: string })[]): Promise<number> {
  let queued = 0;
  const subscribed = new Map<string, Subscriber[]>();
  for (const { organizationId, ...event } of events) {
    if (event.type === 'webhook.ping') continue;
    if (!(await keepEvent(trx, organizationId, event))) continue;
    const key = `${organizationId} ${event.type}`;
    let endpoints = subscribed.get(key);
    if (!endpoints) {
      endpoints = (await subscribers(trx, organizationId, event.type)).map((w) => ({ id: w.id, failing: w.consecutive_failures >= settings.breakerFailures }));
      subscribed.set(key, endpoints);
    }
    queued += await queueDeliveries(trx, settings, organizationId, event, endpoints);
  }
  if (queued > 0) await notifyDispatchers(trx);
  return queued;
}
