import { sql, type Kysely, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { cancelDeferredFor } from './deferred-fan-out.js';

/**
 * Deliveries cancelled by one statement. An endpoint with a bigger backlog (a replay of a month
 * queues one delivery per event) has the rest cancelled in the background
 * (`cancelLeftoverDeliveries`): one statement over 100,000 rows outlasts the statement timeout.
 */
const CANCEL_BATCH = 10_000;

/**
 * A deleted or disabled endpoint's pending and retrying deliveries end `cancelled`, its retry
 * queue with them: no wake-up is left for it and its loop has nothing to promise. Neither the
 * dispatchers nor its loop attempt anything of an endpoint no longer enabled, so what is beyond
 * the first 10,000 is cancelled within seconds by the background sweep. Returns the endpoints
 * whose retry loop to stop after the commit (EndpointLoops.terminate): this one, if a loop may
 * run. A replay still being queued for it stops at its next batch (webhooks/replay.ts).
 *
 * It first locks the endpoint's row FOR UPDATE, which waits for every fan-out holding the row FOR
 * KEY SHARE (webhooks.queries.ts `subscribers`): what they queued is committed, and cancelled
 * here, before the disable or delete commits.
 */
export async function cancelEndpointDeliveries(trx: Transaction<IntegrationsDB>, webhookId: string): Promise<string[]> {
  await trx.selectFrom('integrations.webhooks').select('id').where('id', '=', webhookId).forUpdate().execute();
  await cancelDeferredFor(trx, webhookId);
  await sql`
    with c as (
      select id from integrations.deliveries where webhook_id = ${webhookId} and status in ('pending', 'retrying') limit ${CANCEL_BATCH} for update
    )
    update integrations.deliveries d set status = 'cancelled', lease_until = null, next_attempt_at = null, queue_head = false, updated_at = now()
    from c where d.id = c.id`.execute(trx);
  await sql`delete from integrations.endpoint_wakes where webhook_id = ${webhookId}`.execute(trx);
  const { rows } = await sql<{ had_loop: boolean }>`
    update integrations.webhooks w set retry_loop_at = null
    from (select id, retry_loop_at is not null as had_loop from integrations.webhooks where id = ${webhookId}) o
    where w.id = o.id
    returning o.had_loop`.execute(trx);
  return rows[0]?.had_loop ? [webhookId] : [];
}

/**
 * The pending and retrying deliveries left to endpoints that were disabled or deleted (beyond the
 * first batch cancelled with the change): a batch cancelled per call; true while more may be left.
 */
export async function cancelLeftoverDeliveries(db: Kysely<IntegrationsDB>): Promise<boolean> {
  const result = await sql`
    with c as (
      select d.id from integrations.deliveries d join integrations.webhooks w on w.id = d.webhook_id
      where d.status in ('pending', 'retrying') and (w.status <> 'enabled' or w.deleted_at is not null)
      limit ${CANCEL_BATCH} for update of d skip locked
    )
    update integrations.deliveries d set status = 'cancelled', lease_until = null, next_attempt_at = null, queue_head = false, updated_at = now()
    from c where d.id = c.id`.execute(db);
  return Number(result.numAffectedRows ?? 0) === CANCEL_BATCH;
}
