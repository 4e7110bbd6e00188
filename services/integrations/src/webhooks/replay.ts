import { claimWithLease, newId, recordAudit, RelayLoop, runOnce, sql, type Kysely, type Logger, type RelayTiming, type Transaction } from '@hireloop/platform';
import { ID_PREFIXES, type ReplayAccepted, type ReplayBody } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type IntegrationsDB, type ReplaysTable } from '../db.js';
import type { DeliverySettings } from '../deliveries/delivery-settings.js';
import { retainedSince } from '../deliveries/deliveries.queries.js';
import { notifyDispatchers } from '../deliveries/fan-out.js';
import { retriesQueued } from '../deliveries/retry-queue.js';
import { enabledWebhookForShare } from './webhooks.queries.js';

/** NOTIFY channel that wakes the replay queues once a replay is recorded. */
export const REPLAYS_CHANNEL = 'hireloop_replays';
/** Events queued per transaction. */
const BATCH = 1000;
/** Batches per claim of a replay (a claim's lease covers them). */
const BATCHES_PER_CLAIM = 20;

/** The events of a replay's window still to queue, after its cursor (ordered by creation). */
function windowEvents(db: Kysely<IntegrationsDB> | Transaction<IntegrationsDB>, job: Pick<Selectable<ReplaysTable>, 'organization_id' | 'since' | 'until' | 'types'>) {
  let q = db.selectFrom('integrations.events').where('organization_id', '=', job.organization_id).where('type', '<>', 'webhook.ping')
    .where('created_at', '>=', job.since).where('created_at', '<', job.until).where('created_at', '>', retainedSince);
  if (job.types !== null) q = q.where('type', '=', sql<string>`any(${job.types}::text[])`);
  return q;
}

/**
 * POST /webhooks/{id}/replay (PRODUCT.md §8): every retained event in [since, until) of the types
 * this endpoint subscribes to (narrowed by `types`) is delivered to it again, as a new generation
 * of its delivery (or a first delivery, for an event it never got), with its original
 * `webhook-id`. Pings are not replayed.
 *
 * It answers at once, whatever the window: the request counts the window with one indexed query
 * (`until` defaults to the request's time) and records it; the deliveries are queued in the
 * background by ReplayQueue, a batch per transaction. While the endpoint is failing they join the
 * head of its retry queue (the answer's `failing`), else the dispatchers attempt them at once.
 * A repeat of the Idempotency-Key scope records nothing again and answers the first answer.
 */
export async function replay(
  db: Kysely<IntegrationsDB>, settings: DeliverySettings, organizationId: string, webhookId: string, input: ReplayBody, idempotencyScope: string | null,
): Promise<ReplayAccepted> {
  return db.transaction().execute((trx) => runOnce(trx, SCHEMA, idempotencyScope, async () => {
    const webhook = await enabledWebhookForShare(trx, organizationId, webhookId);
    const subscribed = webhook.events.includes('*') ? null : webhook.events;
    const types = input.types ? input.types.filter((t) => subscribed === null || subscribed.includes(t)) : subscribed;
    const { now } = (await sql<{ now: Date }>`select now() as now`.execute(trx)).rows[0]!;
    const job = { organization_id: organizationId, since: new Date(input.since), until: input.until ? new Date(input.until) : now, types };
    const { count } = await windowEvents(trx, job).select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    if (Number(count) > 0) {
      await trx.insertInto('integrations.replays').values({ id: newId('rpl'), webhook_id: webhookId, task_queue: settings.taskQueue, ...job }).execute();
      await sql`select pg_notify(${REPLAYS_CHANNEL}, 'integrations')`.execute(trx);
    }
    await recordAudit(trx, SCHEMA, organizationId, 'webhook.replayed', { type: 'webhook', id: webhookId });
    return { count: Number(count), failing: webhook.consecutive_failures >= settings.breakerFailures };
  }, {
    recordOf: (result) => JSON.stringify(result),
    // Records from before the background queue hold the count alone.
    replay: async (recorded) => {
      const value = JSON.parse(recorded) as ReplayAccepted | number;
      return typeof value === 'number' ? { count: value, failing: false } : value;
    },
  }));
}

/**
 * Queues the deliveries of recorded replays (this deployment's), in the background: claims one
 * with a lease (several instances share the work; one that dies leaves it to another), and
 * queues its window in event order, a batch of 1,000 per transaction with the replay's cursor, so
 * each event is queued once. Each batch holds the endpoint FOR SHARE: a disable or delete waits
 * for it, and a replay of an endpoint no longer enabled ends with nothing more queued.
 */
export class ReplayQueue {
  private readonly loop: RelayLoop;

  constructor(
    private readonly db: Kysely<IntegrationsDB>,
    private readonly settings: DeliverySettings,
    private readonly logger: Logger,
    timing: RelayTiming = {},
  ) {
    this.loop = new RelayLoop({ name: 'replays', schema: SCHEMA, channel: REPLAYS_CHANNEL, timing, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async pass(): Promise<boolean> {
    const [job] = await claimWithLease<Selectable<ReplaysTable>>(this.db, { schema: SCHEMA, table: 'replays', key: 'id' }, {
      pending: sql`finished_at is null and task_queue = ${this.settings.taskQueue}`,
      orderBy: sql`created_at, id`,
      limit: 1,
      leaseMs: this.loop.leaseMs,
    });
    if (!job) return false;
    let current = job;
    for (let i = 0; i < BATCHES_PER_CLAIM && current.finished_at === null; i++) current = await this.queueBatch(current);
    if (current.finished_at === null) await sql`update integrations.replays set lease_until = null where id = ${job.id}`.execute(this.db);
    else this.logger.debug({ replayId: job.id, webhookId: job.webhook_id, queued: current.queued }, 'replay queued');
    return true;
  }

  private queueBatch(job: Selectable<ReplaysTable>): Promise<Selectable<ReplaysTable>> {
    const { settings } = this;
    return this.db.transaction().execute(async (trx) => {
      const webhook = await trx.selectFrom('integrations.webhooks').select(['status', 'deleted_at', 'consecutive_failures', 'probe_at'])
        .where('id', '=', job.webhook_id).forShare().executeTakeFirst();
      const finish = (queued: number, cursor: { created_at: Date; id: string } | null, done: boolean) =>
        trx.updateTable('integrations.replays')
          .set({ queued, after_created_at: cursor?.created_at ?? job.after_created_at, after_id: cursor?.id ?? job.after_id, finished_at: done ? sql<Date>`now()` : null })
          .where('id', '=', job.id).returningAll().executeTakeFirstOrThrow();
      if (!webhook || webhook.deleted_at || webhook.status !== 'enabled') return finish(job.queued, null, true);

      let q = windowEvents(trx, job).select(['id', 'type', 'created_at']);
      if (job.after_created_at && job.after_id) q = q.where(sql<boolean>`(created_at, id) > (${job.after_created_at}, ${job.after_id})`);
      // For key share, as a foreign key would: the retention purge deletes an event's deliveries
      // itself, after it has the event's row (purgeExpiredEvents).
      const events = await q.orderBy('created_at').orderBy('id').limit(BATCH).forKeyShare().execute();
      if (events.length === 0) return finish(job.queued, null, true);

      const failing = webhook.consecutive_failures >= settings.breakerFailures;
      const now = new Date();
      const status = failing ? ('retrying' as const) : ('pending' as const);
      // While failing, they go with the endpoint's next probe, and show when that is (as a manual retry does).
      const due = failing && webhook.probe_at && webhook.probe_at > now ? webhook.probe_at : now;
      const rows = await trx
        .insertInto('integrations.deliveries')
        .values(events.map((e) => ({
          id: newId(ID_PREFIXES.delivery, now.getTime()), organization_id: job.organization_id, webhook_id: job.webhook_id, event_id: e.id, event_type: e.type,
          task_queue: settings.taskQueue, status, queue_head: failing, next_attempt_at: due, created_at: now,
        })))
        .onConflict((oc) => oc.columns(['event_id', 'webhook_id']).doUpdateSet({
          status, queue_head: failing, retry_step: 0, generation: sql`integrations.deliveries.generation + 1`, task_queue: settings.taskQueue,
          next_attempt_at: due, lease_until: null, updated_at: now,
        }))
        .returning('id')
        .execute();
      if (failing) await retriesQueued(trx, settings, [job.webhook_id]);
      else await notifyDispatchers(trx);
      return finish(job.queued + rows.length, events.at(-1)!, events.length < BATCH);
    });
  }
}
