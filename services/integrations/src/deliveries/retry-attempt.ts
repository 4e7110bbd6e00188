import { sql, type Kysely, type Logger } from '@hireloop/platform';
import type { Client } from '@temporalio/client';
import type { IntegrationsDB } from '../db.js';
import { recordAttempt, WORK_COLUMNS, type DeliverySender, type DeliveryWork, type Outcome } from './delivery-attempt.js';
import { stopRetryWorkflows } from './cancel.js';
import type { DeliverySettings } from './delivery-start.js';
import { EndpointWaiters, WOKEN_FOR } from './endpoint-waiters.js';

export interface RetryAttemptDeps {
  db: Kysely<IntegrationsDB>;
  settings: DeliverySettings;
  sender: DeliverySender;
  temporal: Client;
  logger: Logger;
  waiters: EndpointWaiters;
}

export interface RetryAttemptInput {
  deliveryId: string;
  generation: number;
  /** The wait before the next attempt should this one fail (null: none, the schedule ends). */
  waitSeconds: number | null;
  /** The Temporal task token of the activity asking (base64): completed with the outcome. */
  taskToken: string;
}

/**
 * What a retry workflow's activity is answered at once: `accepted` (the attempt is under way; the
 * activity is completed with its Outcome once it is recorded), `busy` (the endpoint has its
 * `endpointConcurrency` attempts in flight: nothing was sent or logged; the retry is queued for
 * the endpoint and its workflow is signalled when an attempt there ends), `full` (this instance
 * has its `totalConcurrency` retries in flight: nothing was sent, ask again shortly) or `stopped`
 * (the delivery is no longer this generation's to retry: delivered, cancelled, superseded by a
 * manual retry or a replay, or its event purged).
 */
export type RetryAnswer = { outcome: 'accepted' | 'busy' | 'full' | 'stopped' };

/**
 * The attempts of retry workflows (PRODUCT.md §8). The payload and the secret are read here,
 * never carried by the workflow. The HTTP attempt runs here after the call has been answered, and
 * its outcome completes the Temporal activity asynchronously: a worker's activity slot is held for
 * the call, not for the receiver's answer (up to `timeoutMs`), so one organization's hanging
 * endpoints cannot use up the worker's slots and hold up everyone's retries.
 *
 * Like the dispatcher's first attempts, retries take a lease on their delivery under the
 * endpoint's cap (leased rows, counted across every instance and shared with the dispatchers).
 * Should this process die mid-attempt, the activity times out and Temporal asks again; the lease
 * has expired by then (`leaseMs` < the activity's deadline) and the attempt is made again.
 */
export class RetryAttempts {
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly deps: RetryAttemptDeps) {}

  async take(organizationId: string, input: RetryAttemptInput): Promise<RetryAnswer> {
    const { db, settings } = this.deps;
    const { rows } = await sql<DeliveryWork & { status: string; webhook_status: string; deleted_at: Date | null }>`
      select ${WORK_COLUMNS}, d.status, w.status as webhook_status, w.deleted_at
      from integrations.deliveries d join integrations.events e on e.id = d.event_id join integrations.webhooks w on w.id = d.webhook_id
      where d.id = ${input.deliveryId} and d.organization_id = ${organizationId}`.execute(db);
    const work = rows[0];
    if (!work || work.status !== 'retrying' || work.generation !== input.generation) return this.stopped(input);
    if (work.deleted_at || work.webhook_status !== 'enabled') {
      await db.updateTable('integrations.deliveries').set({ status: 'cancelled', lease_until: null, next_attempt_at: null, updated_at: new Date() })
        .where('id', '=', work.id).where('status', '=', 'retrying').execute();
      return this.stopped(input);
    }
    if (this.inFlight >= settings.totalConcurrency) return { outcome: 'full' };
    // At the cap: queued for the endpoint, then a second look, which takes a place freed before
    // the queueing committed (its release's wake-up did not see this retry queued).
    if (!(await this.lease(work, true)) && !(await this.lease(work, false))) return { outcome: 'busy' };
    this.inFlight++;
    const run = this.attempt(work, input).finally(() => {
      this.inFlight--;
      this.running.delete(run);
    });
    this.running.add(run);
    return { outcome: 'accepted' };
  }

  /** Waits for the attempts in flight (their activities would time out and be asked again otherwise). */
  async stop(): Promise<void> {
    await Promise.all(this.running);
  }

  /** A delivery no longer to retry leaves its endpoint's queue (if it was in it). */
  private async stopped(input: RetryAttemptInput): Promise<RetryAnswer> {
    await this.deps.db.deleteFrom('integrations.endpoint_waiters').where('delivery_id', '=', input.deliveryId).where('generation', '=', input.generation).execute();
    return { outcome: 'stopped' };
  }

  /**
   * Leases the delivery if its endpoint has fewer than `endpointConcurrency` attempts in flight
   * (its leased rows, first attempts included); one transaction at a time per endpoint takes the
   * count, so two instances cannot both take the last place. A lease left by a process that died
   * mid-attempt is taken over once it has expired. A place promised to a queued retry just
   * woken for it is not taken by another retry (first attempts do not look). Leased, the delivery
   * leaves its endpoint's queue; not leased and `queue`, it joins it (EndpointWaiters).
   */
  private lease(work: DeliveryWork, queue: boolean): Promise<boolean> {
    const { settings } = this.deps;
    return this.deps.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-lease:${work.webhook_id}`}, 0))`.execute(trx);
      const { rows } = await sql<{ id: string }>`
        with leased as (
          update integrations.deliveries d set lease_until = now() + make_interval(secs => ${settings.leaseMs / 1000}), updated_at = now()
          where d.id = ${work.id} and d.status = 'retrying' and d.generation = ${work.generation} and (d.lease_until is null or d.lease_until <= now())
            and (select count(*) from integrations.deliveries y
                 where y.webhook_id = ${work.webhook_id} and y.status in ('pending', 'retrying') and y.lease_until > now())
              + (select count(*) from integrations.endpoint_waiters q
                 where q.webhook_id = ${work.webhook_id} and q.delivery_id <> ${work.id} and q.woken_at > now() - ${WOKEN_FOR}::interval) < ${settings.endpointConcurrency}
          returning d.id
        ), dequeued as (
          delete from integrations.endpoint_waiters q using leased where q.delivery_id = leased.id
        )
        select id from leased`.execute(trx);
      if (rows.length === 0 && queue) await EndpointWaiters.register(trx, work);
      return rows.length > 0;
    });
  }

  private async attempt(work: DeliveryWork, input: RetryAttemptInput): Promise<void> {
    const { db, settings, sender, temporal, logger } = this.deps;
    const taskToken = Buffer.from(input.taskToken, 'base64');
    let outcome: Outcome;
    try {
      const result = await sender.send(work);
      const recorded = await recordAttempt(db, settings, work, result, { handover: false, waitSeconds: input.waitSeconds });
      this.deps.waiters.released([work.webhook_id]);
      if (recorded.stopWorkflows.length) await stopRetryWorkflows(temporal, recorded.stopWorkflows.filter((id) => !id.startsWith(`deliver:${work.id}`)), logger);
      outcome = recorded.outcome;
    } catch (err) {
      // Not recorded: the activity fails and Temporal asks again once the lease has expired.
      logger.warn({ err, deliveryId: work.id }, 'could not record a retry attempt; Temporal asks again');
      await temporal.activity.fail(taskToken, new Error('The attempt could not be recorded.')).catch(() => undefined);
      return;
    }
    try {
      await temporal.activity.complete(taskToken, outcome);
    } catch (err) {
      // The attempt is logged; the activity times out and Temporal asks again (the delivery's state decides).
      logger.warn({ err, deliveryId: work.id }, 'could not complete a retry attempt\'s activity');
    }
  }
}
