import { newId, sql, type Transaction } from '@hireloop/platform';
import { ID_PREFIXES } from '@hireloop/contracts';
import type { IntegrationsDB } from '../db.js';
import { subscribers } from '../webhooks/webhooks.queries.js';

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

/** Queues one delivery per endpoint, due now; an existing (event, endpoint) pair is left alone. */
export async function queueDeliveries(trx: Transaction<IntegrationsDB>, taskQueue: string, organizationId: string, event: Pick<EventEnvelope, 'id' | 'type'>, webhookIds: string[]): Promise<number> {
  if (webhookIds.length === 0) return 0;
  const now = new Date();
  const rows = await trx
    .insertInto('integrations.deliveries')
    .values(webhookIds.map((webhookId) => ({
      id: newId(ID_PREFIXES.delivery, now.getTime()),
      organization_id: organizationId,
      webhook_id: webhookId,
      event_id: event.id,
      event_type: event.type,
      task_queue: taskQueue,
      status: 'pending' as const,
      next_attempt_at: now,
      created_at: now,
    })))
    .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doNothing())
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Fan-out (PRODUCT.md §8): each published event is kept, and one delivery row per subscribed,
 * enabled endpoint is written in the same transaction; the dispatchers are woken at its commit.
 * Idempotent by event id: a republished event queues nothing new.
 */
export async function ingestEvents(trx: Transaction<IntegrationsDB>, taskQueue: string, events: (EventEnvelope & { organizationId: string })[]): Promise<number> {
  let queued = 0;
  const subscribed = new Map<string, string[]>();
  for (const { organizationId, ...event } of events) {
    if (event.type === 'webhook.ping') continue;
    if (!(await keepEvent(trx, organizationId, event))) continue;
    const key = `${organizationId} ${event.type}`;
    let ids = subscribed.get(key);
    if (!ids) {
      ids = (await subscribers(trx, organizationId, event.type)).map((w) => w.id);
      subscribed.set(key, ids);
    }
    queued += await queueDeliveries(trx, taskQueue, organizationId, event, ids);
  }
  if (queued > 0) await notifyDispatchers(trx);
  return queued;
}
