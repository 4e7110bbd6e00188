import { randomBytes } from 'node:crypto';
import { AppError, enqueueWorkflowStart, newId, olderThan, resolveWebhookTarget, sql, toPage, type CursorCodec, type Kysely, type SecretBox } from '@hireloop/platform';
import { ID_PREFIXES, type CreatedWebhook, type CreateWebhookBody, type Webhook } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type IntegrationsDB, type WebhooksTable } from '../db.js';
import { deliveryStart, type DeliverySettings } from '../deliveries/delivery-start.js';

export function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabledReason: row.disabled_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** `whsec_` + base64 of 24 random bytes (PRODUCT.md §7), the form Standard Webhooks libraries take. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * Registers a webhook: the URL must pass the SSRF guard now (and again at every delivery), the
 * secret is sealed at rest and returned only here, and a `webhook.ping` delivery is queued in the
 * same transaction.
 */
export async function createWebhook(db: Kysely<IntegrationsDB>, box: SecretBox, settings: DeliverySettings, organizationId: string, input: CreateWebhookBody): Promise<CreatedWebhook> {
  await resolveWebhookTarget(input.url, settings.allowLoopback);
  const secret = newSecret();
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const row = await trx
      .insertInto('integrations.webhooks')
      .values({
        id: newId(ID_PREFIXES.webhook, now.getTime()),
        organization_id: organizationId,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        status: 'enabled',
        secret_sealed: box.seal(secret),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const webhook = toWebhook(row);
    const ping = { id: newId(ID_PREFIXES.event), type: 'webhook.ping' as const, createdAt: now.toISOString(), data: { webhook } };
    await enqueueWorkflowStart(trx, SCHEMA, deliveryStart(settings, organizationId, webhook.id, ping));
    return { ...webhook, secret };
  });
}

const live = (db: Db) => db.selectFrom('integrations.webhooks').selectAll().where('deleted_at', 'is', null);

export async function getWebhookRow(db: Db, organizationId: string, id: string) {
  const row = await live(db).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No webhook ${id}.`);
  return row;
}

export async function listWebhooks(db: Db, codec: CursorCodec, organizationId: string, query: { limit: number; cursor?: string }) {
  const context = { list: 'webhooks', organizationId, filters: {} };
  let q = live(db).where('organization_id', '=', organizationId);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  return { items: page.items.map(toWebhook), nextCursor: page.nextCursor };
}

/** DELETE: the webhook disappears from the API at once; deliveries in flight stop at their next attempt. */
export async function deleteWebhook(db: Db, organizationId: string, id: string): Promise<void> {
  const row = await db
    .updateTable('integrations.webhooks')
    .set({ deleted_at: new Date(), updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `No webhook ${id}.`);
}

/** Enabled webhooks of the organization that subscribe to `type` (or to everything). */
export function subscribers(db: Db, organizationId: string, type: string) {
  return live(db)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'enabled')
    .where((eb) => eb.or([eb(sql.lit(type), '=', eb.fn.any('events')), eb(sql.lit('*'), '=', eb.fn.any('events'))]))
    .select(['id'])
    .execute();
}
