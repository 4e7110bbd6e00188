import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { sql, type Logger, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { retryWorkflowId } from './delivery-start.js';

/**
 * A deleted or disabled endpoint's pending and retrying deliveries end `cancelled`. Retry
 * workflows not started yet are dropped from the workflow outbox; the ids of those that may be
 * running are returned, for `stopRetryWorkflows` after the commit.
 */
export async function cancelEndpointDeliveries(trx: Transaction<IntegrationsDB>, webhookId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string; generation: number; was: string }>`
    with c as (
      select id, status from integrations.deliveries where webhook_id = ${webhookId} and status in ('pending', 'retrying') for update
    )
    update integrations.deliveries d set status = 'cancelled', lease_until = null, next_attempt_at = null, updated_at = now()
    from c where d.id = c.id
    returning d.id, d.generation, c.status as was`.execute(trx);
  await sql`delete from integrations.endpoint_waiters where webhook_id = ${webhookId}`.execute(trx);
  const workflowIds = rows.filter((r) => r.was === 'retrying').map((r) => retryWorkflowId(r.id, r.generation));
  if (workflowIds.length === 0) return [];
  await sql`delete from integrations.workflow_outbox where workflow_id = any(${workflowIds}) and started_at is null`.execute(trx);
  return workflowIds;
}

/**
 * Terminates retry workflows at once (after the commit that cancelled their deliveries). Should
 * Temporal be unreachable, a workflow left running stops at its next attempt, whose activity
 * finds the delivery cancelled.
 */
export async function stopRetryWorkflows(temporal: Client, workflowIds: string[], logger: Logger): Promise<void> {
  for (let i = 0; i < workflowIds.length; i += 50) {
    await Promise.all(
      workflowIds.slice(i, i + 50).map(async (id) => {
        try {
          await temporal.workflow.getHandle(id).terminate('the webhook was deleted or disabled');
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) return; // already ended
          logger.warn({ err, workflowId: id }, 'could not stop a retry workflow; it stops at its next attempt');
        }
      }),
    );
  }
}
