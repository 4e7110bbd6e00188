import { AppError, olderThan, purgeAuditEvents, purgeIdempotencyRecords, purgeRelayedOutboxes, recordAudit, runOnce, sql, toPage, type CursorCodec, type EventInviteUrls, type Kysely, type OutboxPurgeResult } from '@hireloop/platform';
import type { Delivery, DeliveryAttempt, EventEnvelope, ListDeliveriesQuery, ListEventsQuery } from '@hireloop/contracts';
import type { Selectable, Transaction } from 'kysely';
import { SCHEMA, type DeliveriesTable, type DeliveryAttemptsTable, type IntegrationsDB } from '../db.js';
import { enabledWebhookForShare, getWebhookRow } from '../webhooks/webhooks.queries.js';
import { notifyDispatchers } from './fan-out.js';
import type { DeliverySettings } from './delivery-settings.js';
import { retriesQueued } from './retry-queue.js';

/** Events (and with them their deliveries) are kept this long (PRODUCT.md §7). */
export const EVENT_RETENTION = '30 days';
/** The oldest instant a retained event may have: older ones are gone from the API and replays before the hourly purge deletes them. */
export const retainedSince = sql<Date>`now() - ${EVENT_RETENTION}::interval`;
/**
 * How long an erased person's tombstones (integrations.erased_ids) are kept. They are needed only
 * while an event of the person that a relay read before the erasure's scrub can still be handed
 * in: a relay hands in a batch within its lease (3 × RELAY_CALL_TIMEOUT_MS, 30 s), or the rows go
 * back to the outbox, which the recruiting step has redacted. 30 days, as the events themselves.
 */
export const ERASED_IDS_RETENTION = '30 days';

function toDelivery(r: Selectable<DeliveriesTable>): Delivery {
  return {
    id: r.id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
    lastAttempt: r.last_attempt_at
      ? { statusCode: r.last_status_code, error: r.last_error, latencyMs: r.last_latency_ms ?? 0, at: r.last_attempt_at.toISOString() }
      : null,
    createdAt: r.created_at.toISOString(),
  };
}

function toAttempt(r: Selectable<DeliveryAttemptsTable>): DeliveryAttempt {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    webhookId: r.webhook_id,
    eventId: r.event_id,
    eventType: r.event_type,
    attempt: r.attempt,
    statusCode: r.status_code,
    latencyMs: r.latency_ms,
    responseExcerpt: r.response_excerpt,
    error: r.error,
    createdAt: r.created_at.toISOString(),
  };
}

/** GET /webhooks/{id}/deliveries: one row per (event, endpoint), newest first; filters status, eventType. */
export async function listDeliveries(db: Kysely<IntegrationsDB>, codec: CursorCodec, organizationId: string, query: ListDeliveriesQuery & { webhookId: string }) {
  await getWebhookRow(db, organizationId, query.webhookId);
  const context = { list: 'deliveries', organizationId, filters: { webhookId: query.webhookId, status: query.status, eventType: query.eventType } };
  let q = db.selectFrom('integrations.deliveries').selectAll().where('webhook_id', '=', query.webhookId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.eventType) q = q.where('event_type', '=', query.eventType);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return { items: page.items.map(toDelivery), nextCursor: page.nextCursor };
}

async function getDeliveryRow(db: Kysely<IntegrationsDB>, organizationId: string, webhookId: string, deliveryId: string) {
  await getWebhookRow(db, organizationId, webhookId);
  const row = await db.selectFrom('integrations.deliveries').selectAll().where('id', '=', deliveryId).where('webhook_id', '=', webhookId).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No delivery ${deliveryId}.`);
  return row;
}

/** The attempts of one endpoint (the console's delivery log) or of one delivery, newest first. */
export async function listAttempts(db: Kysely<IntegrationsDB>, codec: CursorCodec, organizationId: string, query: { webhookId: string; deliveryId?: string; limit: number; cursor?: string }) {
  if (query.deliveryId) await getDeliveryRow(db, organizationId, query.webhookId, query.deliveryId);
  else await getWebhookRow(db, organizationId, query.webhookId);
  const context = { list: 'delivery_attempts', organizationId, filters: { webhookId: query.webhookId, deliveryId: query.deliveryId } };
  let q = db.selectFrom('integrations.delivery_attempts').selectAll().where('webhook_id', '=', query.webhookId);
  if (query.deliveryId) q = q.where('delivery_id', '=', query.deliveryId);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return { items: page.items.map(toAttempt), nextCursor: page.nextCursor };
}

/**
 * POST …/deliveries/{id}/retry: one attempt now, outside the schedule (none more when one is under
 * way, or due and unclaimed: it answers the delivery as it is). Otherwise the delivery takes a new
 * generation (an attempt of the old one in flight records nothing on it) and its schedule starts
 * again: it goes back to the dispatchers, or, while the endpoint is failing, to the head of its
 * retry queue (the next probe), which its answer shows as `retrying`.
 */
export async function retryDelivery(
  db: Kysely<IntegrationsDB>, settings: DeliverySettings, organizationId: string, webhookId: string, deliveryId: string, idempotencyScope: string | null,
): Promise<Delivery> {
  return db.transaction().execute((trx) => runOnce(trx, SCHEMA, idempotencyScope, async () => {
    const webhook = await enabledWebhookForShare(trx, organizationId, webhookId);
    return retryNow(trx, settings, organizationId, webhookId, deliveryId, webhook.consecutive_failures >= settings.breakerFailures);
  }, {
    recordOf: (delivery) => delivery.id,
    replay: async (id) => toDelivery(await getDeliveryRow(trx, organizationId, webhookId, id)),
  }));
}

async function retryNow(trx: Transaction<IntegrationsDB>, settings: DeliverySettings, organizationId: string, webhookId: string, deliveryId: string, failing: boolean): Promise<Delivery> {
  const before = await trx
    .selectFrom('integrations.deliveries')
    .selectAll()
    .select(sql<boolean>`coalesce(lease_until > now(), false)`.as('attempt_under_way'))
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new AppError('not_found', `No delivery ${deliveryId}.`);
  // An attempt under way (a dispatcher's or a retry loop's live lease), or one due on this
  // deployment's dispatchers and not yet claimed, is the attempt asked for: a new generation now
  // would let a dispatcher send it again while the first is in flight (two requests, two log
  // entries, one over the endpoint's cap). A pending row of another task queue, or one whose
  // lease expired, takes the new generation below (as the lease hand-over would).
  const { attempt_under_way: underWay, ...row0 } = before;
  if (underWay || (row0.status === 'pending' && row0.lease_until === null && row0.task_queue === settings.taskQueue)) return toDelivery(row0);
  const row = await trx
    .updateTable('integrations.deliveries')
    .set({
      status: failing ? 'retrying' : 'pending', queue_head: failing, retry_step: 0, generation: sql`generation + 1`, task_queue: settings.taskQueue,
      // While failing, the attempt is the endpoint's next probe: the answer says when that is.
      next_attempt_at: failing ? sql<Date>`greatest(now(), (select probe_at from integrations.webhooks where id = ${webhookId}))` : new Date(),
      lease_until: null, updated_at: new Date(),
    })
    .where('id', '=', deliveryId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (failing) await retriesQueued(trx, settings, [webhookId]);
  else await notifyDispatchers(trx);
  await recordAudit(trx, SCHEMA, organizationId, 'webhook.delivery_retried', { type: 'delivery', id: deliveryId });
  return toDelivery(row);
}

function toEvent(r: { payload: { id: string; type: string; createdAt: string; data: unknown } }, inviteUrls: EventInviteUrls): EventEnvelope {
  const { id, type, createdAt, data } = r.payload;
  return { id, type, createdAt, data: inviteUrls.render(data) as Record<string, unknown> };
}

/** GET /events: the organization's retained events, newest first; filters type, createdAfter, createdBefore. */
export async function listEvents(db: Kysely<IntegrationsDB>, codec: CursorCodec, inviteUrls: EventInviteUrls, organizationId: string, query: ListEventsQuery) {
  const context = { list: 'events', organizationId, filters: { type: query.type, createdAfter: query.createdAfter, createdBefore: query.createdBefore } };
  let q = db.selectFrom('integrations.events').select(['id', 'created_at', 'payload']).where('organization_id', '=', organizationId)
    .where('created_at', '>', retainedSince);
  if (query.type) q = q.where('type', '=', query.type);
  if (query.createdAfter) q = q.where('created_at', '>', new Date(query.createdAfter));
  if (query.createdBefore) q = q.where('created_at', '<', new Date(query.createdBefore));
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return { items: page.items.map((r) => toEvent(r, inviteUrls)), nextCursor: page.nextCursor };
}

export async function getEvent(db: Kysely<IntegrationsDB>, inviteUrls: EventInviteUrls, organizationId: string, id: string): Promise<EventEnvelope> {
  const row = await db.selectFrom('integrations.events').select('payload').where('organization_id', '=', organizationId).where('id', '=', id)
    .where('created_at', '>', retainedSince).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No event ${id}.`);
  return toEvent(row, inviteUrls);
}

export interface RetentionSettings {
  outboxHours: number;
  /** Recorded Idempotency-Keys (IDEMPOTENCY_RETENTION_HOURS). */
  idempotencyHours: number;
  attemptDays: number;
  auditDays: number;
  atsEventDays: number;
}

/** Expired events deleted per transaction, with their deliveries. */
const EVENT_PURGE_BATCH = 1000;

/**
 * Deletes the events past retention and their deliveries, a batch per transaction; answers how
 * many events went. Deliveries have no foreign key to their event (migration 0018), so this is
 * the cascade: the batch's events are locked first, which waits for a replay that holds them
 * `for key share` and makes a later one skip them, and the deliveries are deleted after, by a
 * statement that sees every delivery such a replay committed.
 */
async function purgeExpiredEvents(db: Kysely<IntegrationsDB>): Promise<number> {
  let purged = 0;
  for (;;) {
    const batch = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        delete from integrations.events e
        using (select id from integrations.events where created_at < now() - ${EVENT_RETENTION}::interval order by created_at limit ${EVENT_PURGE_BATCH} for update) expired
        where e.id = expired.id
        returning e.id`.execute(trx);
      if (rows.length > 0) {
        const ids = rows.map((r) => r.id);
        await sql`delete from integrations.deferred_fan_out where event_id = any(${ids}::text[])`.execute(trx);
        await sql`delete from integrations.deliveries where event_id = any(${ids}::text[])`.execute(trx);
      }
      return rows.length;
    });
    purged += batch;
    if (batch < EVENT_PURGE_BATCH) return purged;
  }
}

/**
 * The retention purge (run hourly by a Temporal schedule): events past 30 days and their
 * deliveries, attempts past the attempt retention, inbound ATS events past theirs, relayed outbox rows and finished replays, recorded Idempotency-Keys,
 * old audit rows, and erased people's tombstones past 30 days (ERASED_IDS_RETENTION: docs/operations.md).
 */
export async function purgeExpired(db: Kysely<IntegrationsDB>, retention: RetentionSettings): Promise<{ events: number; attempts: number; atsEvents: number; idempotency: number; auditEvents: number; erasedIds: number } & OutboxPurgeResult> {
  // Replays queued to their end, as long as relayed outbox rows.
  await sql`delete from integrations.replays where finished_at < now() - make_interval(hours => ${retention.outboxHours})`.execute(db);
  const events = await purgeExpiredEvents(db);
  const attempts = await sql`delete from integrations.delivery_attempts where created_at < now() - make_interval(days => ${retention.attemptDays})`.execute(db);
  const atsEvents = await sql`delete from integrations.ats_events where created_at < now() - make_interval(days => ${retention.atsEventDays})`.execute(db);
  const outboxes = await purgeRelayedOutboxes(db, 'integrations', retention.outboxHours);
  const idempotency = await purgeIdempotencyRecords(db, SCHEMA, retention.idempotencyHours);
  const auditEvents = await purgeAuditEvents(db, SCHEMA, retention.auditDays);
  const erasedIds = await sql`delete from integrations.erased_ids where created_at < now() - ${ERASED_IDS_RETENTION}::interval`.execute(db);
  return { events, attempts: Number(attempts.numAffectedRows ?? 0), atsEvents: Number(atsEvents.numAffectedRows ?? 0), idempotency, auditEvents, erasedIds: Number(erasedIds.numAffectedRows ?? 0), ...outboxes };
}
