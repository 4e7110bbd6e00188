import type { Kysely } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import type { DeliverySettings } from './delivery-settings.js';
import { retriesQueued } from './retry-queue.js';

/**
 * A per-delivery retry workflow from before the endpoints' loops (`deliver:<delivery>`, still
 * running after the upgrade) asks for its next attempt. Integrations no longer makes it: the
 * delivery is already in its endpoint's retry queue (a `retrying` row due when the workflow
 * would have woken), whose loop makes the attempt. Its loop is told, and the workflow is answered
 * `stopped`, so it ends as it always could. No attempt is made here, so none is made twice; and
 * none is lost, as the row stays queued.
 */
export async function handOverLegacyRetry(db: Kysely<IntegrationsDB>, settings: DeliverySettings, organizationId: string, deliveryId: string): Promise<{ outcome: 'stopped' }> {
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('integrations.deliveries').select(['webhook_id', 'status'])
      .where('id', '=', deliveryId).where('organization_id', '=', organizationId).executeTakeFirst();
    if (row?.status === 'retrying') await retriesQueued(trx, settings, [row.webhook_id]);
  });
  return { outcome: 'stopped' };
}
