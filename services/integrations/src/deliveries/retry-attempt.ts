import { sql, type Kysely, type Logger } from '@hireloop/platform';
import type { Client } from '@temporalio/client';
import type { IntegrationsDB } from '../db.js';
import { recordAttempt, WORK_COLUMNS, type DeliverySender, type DeliveryWork, type Outcome } from './delivery-attempt.js';
import { stopRetryWorkflows } from './cancel.js';
import type { DeliverySettings } from './delivery-start.js';

export interface RetryAttemptDeps {
  db: Kysely<IntegrationsDB>;
  settings: DeliverySettings;
  sender: DeliverySender;
  temporal: Client;
  logger: Logger;
}

/**
 * One attempt of a retry workflow (its activity calls this): the payload and the secret are read
 * here, never carried by the workflow. A delivery that is no longer this generation's to retry
 * (delivered, cancelled, superseded by a manual retry or a replay, or its event purged) answers
 * `stopped`. `waitSeconds` is the wait before the next attempt should this one fail (null: none).
 */
export async function attemptRetry(
  deps: RetryAttemptDeps,
  organizationId: string,
  input: { deliveryId: string; generation: number; waitSeconds: number | null },
): Promise<Outcome | { outcome: 'stopped' }> {
  const { rows } = await sql<DeliveryWork & { status: string; webhook_status: string; deleted_at: Date | null }>`
    select ${WORK_COLUMNS}, d.status, w.status as webhook_status, w.deleted_at
    from integrations.deliveries d join integrations.events e on e.id = d.event_id join integrations.webhooks w on w.id = d.webhook_id
    where d.id = ${input.deliveryId} and d.organization_id = ${organizationId}`.execute(deps.db);
  const work = rows[0];
  if (!work || work.status !== 'retrying' || work.generation !== input.generation) return { outcome: 'stopped' };
  if (work.deleted_at || work.webhook_status !== 'enabled') {
    await deps.db.updateTable('integrations.deliveries').set({ status: 'cancelled', next_attempt_at: null, updated_at: new Date() })
      .where('id', '=', work.id).where('status', '=', 'retrying').execute();
    return { outcome: 'stopped' };
  }
  const result = await deps.sender.send(work);
  const { outcome, stopWorkflows } = await recordAttempt(deps.db, deps.settings, work, result, { handover: false, waitSeconds: input.waitSeconds });
  if (stopWorkflows.length) await stopRetryWorkflows(deps.temporal, stopWorkflows.filter((id) => !id.startsWith(`deliver:${work.id}`)), deps.logger);
  return outcome;
}
