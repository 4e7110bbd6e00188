import { sql, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import type { DeliverySettings } from './delivery-settings.js';

/**
 * An endpoint's retry queue is its `retrying` deliveries (PRODUCT.md §8): each with its own
 * `next_attempt_at` on the schedule, drained by the endpoint's one retry loop (a Temporal
 * workflow, `endpoint:<webhook>`: endpoint-rounds.ts makes its attempts, endpoint-loops.ts starts
 * and wakes it). Postgres is the queue; Temporal only waits.
 */

/** NOTIFY channel that wakes the loop wakers (endpoint-loops.ts) once retries are queued. */
export const ENDPOINT_WAKES_CHANNEL = 'hireloop_endpoint_wakes';

/**
 * Called in the transaction that put deliveries of these endpoints into their retry queues (a
 * failed first attempt, a lease that expired, a failing endpoint's new delivery, a manual retry
 * or replay while it is failing): after the commit, this deployment's loop waker looks at each
 * endpoint and wakes its loop if it has to look sooner than it would (or starts it). A request
 * row, not a signal from here: it commits or rolls back with the queueing, survives a crash after
 * the commit, and takes no lock on the webhook row.
 */
export async function retriesQueued(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue'>, webhookIds: string[]): Promise<void> {
  const ids = [...new Set(webhookIds)];
  if (ids.length === 0) return;
  await sql`
    insert into integrations.endpoint_wakes (webhook_id, task_queue)
    select id, ${settings.taskQueue} from unnest(${ids}::text[]) as v(id)
    on conflict (webhook_id, task_queue) do nothing`.execute(trx);
  await sql`select pg_notify(${ENDPOINT_WAKES_CHANNEL}, 'integrations')`.execute(trx);
}
