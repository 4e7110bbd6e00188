import { randomBytes } from 'node:crypto';
import { AppError, createOnce, inTransaction, newId, olderThan, recordAudit, replayedAsJson, resolveWebhookTarget, runOnce, sql, toPage, type CursorCodec, type Kysely, type SecretBox } from '@hireloop/platform';
import { ID_PREFIXES, type CreatedWebhook, type CreateWebhookBody, type UpdateWebhookBody, type Webhook, type WebhookStats } from '@hireloop/contracts';
import type { Selectable, Transaction, UpdateObject } from 'kysely';
import { SCHEMA, type Db, type IntegrationsDB, type WebhooksTable } from '../db.js';
import type { DeliverySettings } from '../deliveries/delivery-settings.js';
import { keepEvent, notifyDispatchers, queueDeliveries } from '../deliveries/fan-out.js';
import { cancelEndpointDeliveries } from '../deliveries/cancel.js';
import { attemptWasMade } from '../deliveries/delivery-attempt.js';

type Breaker = Pick<DeliverySettings, 'breakerFailures'>;

/** How long the secret before a rotation keeps signing beside the new one (PRODUCT.md §7). */
const ROTATION_OVERLAP_MS = 24 * 3600_000;

const NO_STATS: WebhookStats = { pending: 0, retrying: 0, oldestDueAt: null, successRate24h: null };

export function toWebhook(row: Selectable<WebhooksTable>, stats: WebhookStats = NO_STATS): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    status: row.status,
    disabledReason: row.disabled_reason,
    stats,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * The backlog and health of endpoints: deliveries pending and retrying (those not yet written too), the oldest due, 24 h
 * success rate, and since when it is `failing` (its circuit breaker open), if it is.
 */
export async function webhookStats(db: Db, breaker: Breaker, rows: Selectable<WebhooksTable>[]): Promise<Map<string, WebhookStats>> {
  // A disabled endpoint is sent nothing, so it is not failing (docs/api.md: only while failing).
  const failing = (r: Selectable<WebhooksTable>) =>
    r.status === 'enabled' && r.consecutive_failures >= breaker.breakerFailures && r.failing_since ? { failingSince: r.failing_since.toISOString() } : {};
  const stats = new Map<string, WebhookStats>(rows.map((r) => [r.id, { ...NO_STATS, ...failing(r) }]));
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return stats;
  const [backlog, rates] = await Promise.all([
    sql<{ webhook_id: string; pending: number; retrying: number; deferred: number; oldest: Date | null }>`
      select webhook_id, count(*) filter (where status = 'pending')::int as pending, count(*) filter (where status = 'retrying')::int as retrying,
        count(*) filter (where status = 'deferred')::int as deferred, min(due) as oldest
      from (
        select webhook_id, status, next_attempt_at as due from integrations.deliveries where webhook_id = any(${ids}) and status in ('pending', 'retrying')
        union all
        -- Deliveries not yet written (deferred-fan-out.ts), due from the fan-out's time.
        select w.id, 'deferred', f.created_at from integrations.deferred_fan_out f cross join unnest(f.webhook_ids) as w(id)
        where f.webhook_ids && ${ids}::text[] and w.id = any(${ids})
      ) backlog group by webhook_id`.execute(db),
    sql<{ webhook_id: string; rate: number }>`
      select webhook_id, (count(*) filter (where status_code between 200 and 299))::float8 / count(*) as rate
      from integrations.delivery_attempts where webhook_id = any(${ids}) and created_at > now() - interval '24 hours' and ${attemptWasMade} group by webhook_id`.execute(db),
  ]);
  const failingNow = new Set(rows.filter((r) => failing(r).failingSince).map((r) => r.id));
  for (const r of backlog.rows) {
    // Deferred deliveries count as what the writer makes of them: retries of a failing endpoint, else first attempts.
    const [pending, retrying] = failingNow.has(r.webhook_id) ? [r.pending, r.retrying + r.deferred] : [r.pending + r.deferred, r.retrying];
    Object.assign(stats.get(r.webhook_id)!, { pending, retrying, oldestDueAt: r.oldest?.toISOString() ?? null });
  }
  for (const r of rates.rows) stats.get(r.webhook_id)!.successRate24h = Math.round(r.rate * 10_000) / 10_000;
  return stats;
}

export async function webhookWithStats(db: Db, breaker: Breaker, row: Selectable<WebhooksTable>): Promise<Webhook> {
  return toWebhook(row, (await webhookStats(db, breaker, [row]).then((s) => s.get(row.id))));
}

/**
 * At most WEBHOOK_ENDPOINTS_PER_ORG_MAX enabled endpoints per organization, counted when one is
 * created or enabled again: one such transaction at a time per organization (an advisory lock),
 * so two cannot both take the last place.
 */
async function assertRoomForEnabledEndpoint(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'endpointsPerOrg'>, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks-enabled:${organizationId}`}, 0))`.execute(trx);
  const { n } = await trx.selectFrom('integrations.webhooks').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId).where('status', '=', 'enabled').where('deleted_at', 'is', null).executeTakeFirstOrThrow();
  const max = settings.endpointsPerOrg;
  if (Number(n) >= max) throw new AppError('conflict', `The organization has ${Number(n)} enabled webhooks, and at most ${max} are allowed; disable or delete one first.`);
}

/** `whsec_` + base64 of 24 random bytes (PRODUCT.md §7), the form Standard Webhooks libraries take. */
function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Queues a `webhook.ping` to one endpoint, in the caller's transaction. */
async function queuePing(trx: Parameters<typeof keepEvent>[0], settings: DeliverySettings, organizationId: string, webhook: Webhook): Promise<string> {
  const ping = { id: newId(ID_PREFIXES.event), type: 'webhook.ping', createdAt: new Date().toISOString(), data: { webhook } };
  await keepEvent(trx, organizationId, ping);
  // Attempted at once even while the endpoint is failing: a ping is how a user checks it.
  await queueDeliveries(trx, settings, organizationId, ping, [{ id: webhook.id, failing: false }]);
  await notifyDispatchers(trx);
  return ping.id;
}

/**
 * Registers a webhook: the URL must pass the SSRF guard now (and again at every delivery), the
 * secret is sealed at rest and returned only here, and a `webhook.ping` delivery is queued in the
 * same transaction. A repeat of the Idempotency-Key scope returns the webhook it made, with its
 * signing secret (createOnce; the record keeps only the id).
 */
export async function createWebhook(db: Kysely<IntegrationsDB>, box: SecretBox, settings: DeliverySettings, organizationId: string, input: CreateWebhookBody, idempotencyScope: string | null): Promise<CreatedWebhook> {
  await resolveWebhookTarget(input.url, settings.allowLoopback);
  return db.transaction().execute((trx) =>
    createOnce(trx, SCHEMA, idempotencyScope, () => insertWebhook(trx, box, settings, organizationId, input), async (id) => {
      const row = await getWebhookRow(trx, organizationId, id);
      return { ...(await webhookWithStats(trx, settings, row)), secret: box.open(row.secret_sealed) };
    }));
}

async function insertWebhook(trx: Transaction<IntegrationsDB>, box: SecretBox, settings: DeliverySettings, organizationId: string, input: CreateWebhookBody): Promise<CreatedWebhook> {
  await assertRoomForEnabledEndpoint(trx, settings, organizationId);
  const secret = newSecret();
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
  await queuePing(trx, settings, organizationId, webhook);
  await recordAudit(trx, SCHEMA, organizationId, 'webhook.created', { type: 'webhook', id: webhook.id });
  return { ...webhook, stats: { ...NO_STATS, pending: 1, oldestDueAt: now.toISOString() }, secret };
}

const live = (db: Db) => db.selectFrom('integrations.webhooks').selectAll().where('deleted_at', 'is', null);

export async function getWebhookRow(db: Db, organizationId: string, id: string) {
  const row = await live(db).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No webhook ${id}.`);
  return row;
}

/**
 * The endpoint, which must be enabled, locked FOR SHARE until the caller's commit: a disable or
 * delete that comes meanwhile waits for it, and then cancels the deliveries it queued too
 * (without the lock they would stay `pending` for good, as dispatchers skip such endpoints).
 */
export async function enabledWebhookForShare(trx: Transaction<IntegrationsDB>, organizationId: string, id: string) {
  const row = await live(trx).where('organization_id', '=', organizationId).where('id', '=', id).forShare().executeTakeFirst();
  if (!row) throw new AppError('not_found', `No webhook ${id}.`);
  if (row.status !== 'enabled') throw new AppError('conflict', `Webhook ${id} is disabled; enable it first.`);
  return row;
}

export async function listWebhooks(db: Db, breaker: Breaker, codec: CursorCodec, organizationId: string, query: { limit: number; cursor?: string }) {
  const context = { list: 'webhooks', organizationId, filters: {} };
  let q = live(db).where('organization_id', '=', organizationId);
  if (query.cursor) q = q.where(olderThan(codec.decode(query.cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
  const page = toPage(rows, query.limit, codec, context);
  const stats = await webhookStats(db, breaker, page.items);
  return { items: page.items.map((r) => toWebhook(r, stats.get(r.id))), nextCursor: page.nextCursor };
}

/**
 * PATCH: url (checked by the SSRF guard), events, description, status. Disabling cancels the
 * endpoint's pending and retrying deliveries; re-enabling (within the organization's limit of
 * enabled endpoints) clears the failure run, its circuit breaker and the reason.
 * Returns the webhook and the endpoints whose retry loops to stop after the commit.
 */
export async function updateWebhook(db: Kysely<IntegrationsDB>, settings: DeliverySettings, organizationId: string, id: string, input: UpdateWebhookBody): Promise<{ webhook: Webhook; stopLoops: string[] }> {
  if (input.url !== undefined) await resolveWebhookTarget(input.url, settings.allowLoopback);
  const result = await db.transaction().execute(async (trx) => {
    const before = await live(trx).where('organization_id', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) throw new AppError('not_found', `No webhook ${id}.`);
    const enabling = input.status === 'enabled' && before.status === 'disabled';
    const disabling = input.status === 'disabled' && before.status === 'enabled';
    if (enabling) await assertRoomForEnabledEndpoint(trx, settings, organizationId);
    const row = await trx
      .updateTable('integrations.webhooks')
      .set({
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: input.events }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.status !== undefined && { status: input.status }),
        ...(enabling && { failing_since: null, consecutive_failures: 0, probes_failed: 0, probe_at: null, disabled_reason: null }),
        ...(disabling && { disabled_reason: 'Disabled through the API.' }),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const stopLoops = disabling ? await cancelEndpointDeliveries(trx, id) : [];
    await recordAudit(trx, SCHEMA, organizationId, 'webhook.updated', { type: 'webhook', id });
    return { row, stopLoops };
  });
  return { webhook: await webhookWithStats(db, settings, result.row), stopLoops: result.stopLoops };
}

/** Updates one of the organization's webhooks that is not deleted (bumping updated_at) and audits it as `action`, or 404. */
async function updateLiveWebhook(db: Db, organizationId: string, id: string, action: string, set: UpdateObject<IntegrationsDB, 'integrations.webhooks'>): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await trx
      .updateTable('integrations.webhooks')
      .set({ ...set, updated_at: new Date() })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new AppError('not_found', `No webhook ${id}.`);
    await recordAudit(trx, SCHEMA, organizationId, action, { type: 'webhook', id });
  });
}

/**
 * A new secret; the old one keeps signing beside it for 24 h, so receivers can switch without a
 * gap. A repeat of the Idempotency-Key scope rotates no further: it answers the webhook's signing
 * secret (the one this rotation made, unless another rotation came since; the record keeps only
 * the webhook's id, no secret).
 */
export async function rotateSecret(db: Kysely<IntegrationsDB>, box: SecretBox, organizationId: string, id: string, idempotencyScope: string | null): Promise<{ secret: string }> {
  return db.transaction().execute((trx) =>
    runOnce(trx, SCHEMA, idempotencyScope, async () => {
      const secret = newSecret();
      await updateLiveWebhook(trx, organizationId, id, 'webhook.secret_rotated', {
        previous_secret_sealed: sql<string>`secret_sealed`,
        previous_secret_until: new Date(Date.now() + ROTATION_OVERLAP_MS),
        secret_sealed: box.seal(secret),
      });
      return { secret };
    }, { recordOf: () => id, replay: async (webhookId) => ({ secret: box.open((await getWebhookRow(trx, organizationId, webhookId)).secret_sealed) }) }));
}

/**
 * POST /webhooks/{id}/test: a `webhook.ping` to this endpoint now; returns the event's id. A
 * repeat of the Idempotency-Key scope sends no second ping and returns the first one's id.
 */
export async function sendTestPing(db: Kysely<IntegrationsDB>, settings: DeliverySettings, organizationId: string, id: string, idempotencyScope: string | null): Promise<{ eventId: string }> {
  return db.transaction().execute((trx) =>
    runOnce(trx, SCHEMA, idempotencyScope, async () => {
      const row = await enabledWebhookForShare(trx, organizationId, id);
      await recordAudit(trx, SCHEMA, organizationId, 'webhook.tested', { type: 'webhook', id });
      return { eventId: await queuePing(trx, settings, organizationId, toWebhook(row)) };
    }, replayedAsJson()));
}

/** DELETE: gone from the API at once; its pending deliveries end `cancelled`; returns the retry loop to stop. */
export async function deleteWebhook(db: Kysely<IntegrationsDB>, organizationId: string, id: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await updateLiveWebhook(trx, organizationId, id, 'webhook.deleted', { deleted_at: new Date() });
    return cancelEndpointDeliveries(trx, id);
  });
}

/**
 * Enabled webhooks of the organization that subscribe to `type` (or to everything), locked FOR KEY
 * SHARE until the fan-out commits. A disable or delete locks the row FOR UPDATE before it cancels
 * the endpoint's queue (`cancelEndpointDeliveries`), so it waits for the fan-out and then cancels
 * the deliveries it wrote too; a fan-out that comes after that lock waits for it and then sees the
 * endpoint gone. Recording an attempt's outcome on the row (a plain UPDATE of its counters)
 * conflicts with neither: FOR SHARE made every attempt result of a storm wait for the ingest
 * transactions, and each ingest for them (docs/benchmarks.md, issue 19).
 */
export function subscribers(db: Db, organizationId: string, type: string) {
  return live(db)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'enabled')
    .where((eb) => eb.or([eb(sql.lit(type), '=', eb.fn.any('events')), eb(sql.lit('*'), '=', eb.fn.any('events'))]))
    .select(['id', 'consecutive_failures'])
    .forKeyShare()
    .execute();
}
