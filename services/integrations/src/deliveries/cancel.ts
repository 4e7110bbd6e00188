import { sql, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';

/**
 * A deleted or disabled endpoint's pending and retrying deliveries end `cancelled`, its retry
 * queue with them: no wake-up is left for it and its loop has nothing to promise. Returns the
 * endpoints whose retry loop to stop after the commit (EndpointLoops.terminate): this one, if a
 * loop may run. A replay still being queued for it stops at its next batch (webhooks/replay.ts).
 */
export async function cancelEndpointDeliveries(trx: Transaction<IntegrationsDB>, webhookId: string): Promise<string[]> {
  await sql`
    with c as (
      select id from integrations.deliveries where webhook_id = ${webhookId} and status in ('pending', 'retrying') for update
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
