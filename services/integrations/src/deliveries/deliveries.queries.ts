import { AppError, enqueueWorkflowStart, newId, olderThan, sql, toPage, type CursorCodec, type Kysely, type SecretBox } from '@hireloop/platform';
import type { DeliveryAttempt } from '@hireloop/contracts';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { subscribers } from '../webhooks/webhooks.queries.js';
import { deliveryStart, type DeliveredEvent, type DeliverySettings } from './delivery-start.js';

/** An endpoint failing every delivery for this long is disabled (PRODUCT.md §8). */
const DISABLE_AFTER_FAILING = '5 days';

/**
 * Fan-out: for each published event, one delivery workflow per matching enabled webhook, queued
 * in one transaction. Idempotent: the workflow id is (event, webhook), so a republished event
 * queues nothing new.
 */
export async function ingestEvents(db: Kysely<IntegrationsDB>, settings: DeliverySettings, events: (DeliveredEvent & { organizationId: string })[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let queued = 0;
    for (const { organizationId, ...event } of events) {
      if (event.type === 'webhook.ping') continue;
      for (const { id } of await subscribers(trx, organizationId, event.type)) {
        await enqueueWorkflowStart(trx, SCHEMA, deliveryStart(settings, organizationId, id, event));
        queued++;
      }
    }
    return queued;
  });
}

/** What a delivery attempt needs: where to, and the secret to sign with (never leaves the platform). */
export async function deliveryTarget(db: Kysely<IntegrationsDB>, box: SecretBox, organizationId: string, webhookId: string) {
  const row = await db.selectFrom('integrations.webhooks').selectAll().where('organization_id', '=', organizationId).where('id', '=', webhookId).executeTakeFirst();
  if (!row || row.deleted_at) return { state: 'deleted' as const };
  if (row.status === 'disabled') return { state: 'disabled' as const };
  return { state: 'enabled' as const, url: row.url, secret: box.open(row.secret_sealed) };
}

export interface AttemptRecord {
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/**
 * Logs one attempt and keeps the endpoint's health: a 2xx clears `failing_since`; 410 Gone
 * disables at once; any other failure disables once the endpoint has failed for 5 days.
 */
export function recordAttempt(db: Kysely<IntegrationsDB>, organizationId: string, attempt: AttemptRecord): Promise<{ disabled: boolean }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('integrations.delivery_attempts')
      .values({
        id: newId('dla'),
        organization_id: organizationId,
        webhook_id: attempt.webhookId,
        event_id: attempt.eventId,
        event_type: attempt.eventType,
        attempt: attempt.attempt,
        status_code: attempt.statusCode,
        latency_ms: attempt.latencyMs,
        response_excerpt: attempt.responseExcerpt?.slice(0, 1024) ?? null,
        error: attempt.error?.slice(0, 1024) ?? null,
      })
      .execute();
    const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    const where = trx.updateTable('integrations.webhooks').where('organization_id', '=', organizationId).where('id', '=', attempt.webhookId);
    if (ok) {
      await where.set({ failing_since: null }).execute();
      return { disabled: false };
    }
    if (attempt.statusCode === 410) {
      await where.set({ status: 'disabled', disabled_reason: 'The endpoint answered 410 Gone.', updated_at: new Date() }).execute();
      return { disabled: true };
    }
    const row = await where
      .set({
        failing_since: sql<Date>`coalesce(failing_since, now())`,
        status: sql<'enabled' | 'disabled'>`case when failing_since < now() - ${DISABLE_AFTER_FAILING}::interval then 'disabled' else status end`,
        disabled_reason: sql<string | null>`case when failing_since < now() - ${DISABLE_AFTER_FAILING}::interval then 'Every delivery failed for 5 days.' else disabled_reason end`,
      })
      .returning(['status'])
      .executeTakeFirst();
    return { disabled: row?.status === 'disabled' };
  });
}

export async function listAttempts(db: Kysely<IntegrationsDB>, codec: CursorCodec, organizationId: string, query: { webhookId: string; limit: number; cursor?: string }): Promise<{ items: DeliveryAttempt[]; nextCursor: string | null }> {
  const exists = await db.selectFrom('integrations.webhooks').select('id').where('organization_id', '=', organizationId).where('id', '=', query.webhookId).executeTakeFirst();
  if (!exists) throw new AppError('not_found', `No webhook ${query.webhookId}.`);
  const context = { list: 'delivery_attempts', organizationId, filters: { webhookId: query.webhookId } };
  let q = db.selectFrom('integrations.delivery_attempts').selectAll().where('webhook_id', '=', query.webhookId);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return {
    items: page.items.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attempt: r.attempt,
      statusCode: r.status_code,
      latencyMs: r.latency_ms,
      responseExcerpt: r.response_excerpt,
      error: r.error,
      createdAt: r.created_at.toISOString(),
    })),
    nextCursor: page.nextCursor,
  };
}

