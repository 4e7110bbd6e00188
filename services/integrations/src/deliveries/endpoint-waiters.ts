import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { sql, type Kysely, type Logger, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { ENDPOINT_FREE_SIGNAL, retryWorkflowId, type DeliverySettings } from './delivery-start.js';

/**
 * A place freed at the endpoint is promised to the waiter signalled for it this long: other
 * retries do not take it meanwhile. Past it (its worker slow or gone), the waiter may be
 * signalled again and the place goes to whoever asks.
 */
export const WOKEN_FOR = '30 seconds';
/** How often every instance looks for endpoints with free places and waiters no release woke. */
const SWEEP_MS = 5000;

type Waiting = { id: string; webhook_id: string; organization_id: string; generation: number };

/**
 * The queue of retry workflows waiting for a place under their endpoint's concurrency cap
 * (`integrations.endpoint_waiters`). A retry that finds its endpoint at the cap is queued here
 * (`register`, in the transaction that counted the cap), and its workflow waits for a signal
 * instead of polling on a timer. Each time an attempt to the endpoint ends and its lease is
 * released (delivered, failed, handed over, or expired), `wake` signals the oldest waiter, which
 * asks again. So a queued retry costs Temporal one signal and one workflow task per wake-up, and
 * follows the release by one signal's round trip rather than by a timer of up to 30 s.
 *
 * Nothing is lost if a wake-up is: the retry, once queued, looks at the cap again
 * (RetryAttempts.take), so a place freed before its queueing committed is taken then; a sweep on
 * every instance (every 5 s) signals waiters of endpoints that have free places and no pending
 * wake-up (a lease that expired with its process, a releaser that died before signalling,
 * Temporal refusing a signal); and the workflow keeps a long fallback timer.
 */
export class EndpointWaiters {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<IntegrationsDB>,
    private readonly settings: Pick<DeliverySettings, 'endpointConcurrency'>,
    private readonly temporal: Client,
    private readonly logger: Logger,
  ) {}

  /** Queues a retry whose endpoint is at its cap (its place in the queue kept if it was queued already). */
  static async register(trx: Transaction<IntegrationsDB>, work: Waiting): Promise<void> {
    await sql`
      insert into integrations.endpoint_waiters (delivery_id, webhook_id, organization_id, generation)
      values (${work.id}, ${work.webhook_id}, ${work.organization_id}, ${work.generation})
      on conflict (delivery_id) do update set woken_at = null, generation = excluded.generation,
        since = case when endpoint_waiters.generation = excluded.generation then endpoint_waiters.since else now() end`.execute(trx);
  }

  /**
   * After leases on these endpoints were released (one entry per lease: a webhook id may repeat),
   * signals as many of their oldest waiters. Never throws: a wake-up lost here is made by the sweep.
   * Must run after the release has committed, so a retry queueing meanwhile is either seen here or
   * sees the free place itself.
   */
  released(webhookIds: string[]): void {
    if (webhookIds.length === 0) return;
    void this.wake(webhookIds).catch((err: unknown) => this.logger.warn({ err }, 'could not wake the retries waiting for an endpoint; the sweep will'));
  }

  async wake(webhookIds: string[]): Promise<void> {
    const { rows } = await sql<{ delivery_id: string; webhook_id: string; generation: number }>`
      with freed as (
        select webhook_id, count(*)::int as n from unnest(${webhookIds}::text[]) as f(webhook_id) group by webhook_id
      ), picked as (
        select p.delivery_id from freed f
        cross join lateral (
          select w.delivery_id from integrations.endpoint_waiters w
          where w.webhook_id = f.webhook_id and (w.woken_at is null or w.woken_at < now() - ${WOKEN_FOR}::interval)
          order by w.since, w.delivery_id
          limit f.n
          for update skip locked
        ) p
      )
      update integrations.endpoint_waiters w set woken_at = now()
      from picked where w.delivery_id = picked.delivery_id
      returning w.delivery_id, w.webhook_id, w.generation`.execute(this.db);
    const again: string[] = [];
    await Promise.all(
      rows.map(async (row) => {
        try {
          await this.temporal.workflow.getHandle(retryWorkflowId(row.delivery_id, row.generation)).signal(ENDPOINT_FREE_SIGNAL);
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) {
            // Its workflow has ended (delivered, stopped, superseded): leave the queue, wake the next one.
            await sql`delete from integrations.endpoint_waiters where delivery_id = ${row.delivery_id} and generation = ${row.generation}`.execute(this.db);
            again.push(row.webhook_id);
            return;
          }
          await sql`update integrations.endpoint_waiters set woken_at = null where delivery_id = ${row.delivery_id}`.execute(this.db);
          this.logger.warn({ err, deliveryId: row.delivery_id }, 'could not signal a retry waiting for its endpoint; the sweep tries again');
        }
      }),
    );
    if (again.length) await this.wake(again);
  }

  /**
   * Signals the waiters of endpoints that have free places under the cap not already promised to
   * a waiter signalled lately: places freed by leases that expired (their process died), or whose
   * wake-up was lost.
   */
  async sweep(): Promise<void> {
    const { rows } = await sql<{ webhook_id: string; free: number }>`
      with queued as (
        select webhook_id, count(*) filter (where woken_at > now() - ${WOKEN_FOR}::interval) as promised
        from integrations.endpoint_waiters group by webhook_id
        having count(*) filter (where woken_at is null or woken_at <= now() - ${WOKEN_FOR}::interval) > 0
      )
      select q.webhook_id, (${this.settings.endpointConcurrency} - q.promised - (
        select count(*) from integrations.deliveries y
        where y.webhook_id = q.webhook_id and y.status in ('pending', 'retrying') and y.lease_until > now()))::int as free
      from queued q`.execute(this.db);
    const places = rows.flatMap((r) => Array.from({ length: Math.max(0, r.free) }, () => r.webhook_id));
    if (places.length) await this.wake(places);
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.logger.warn({ err }, 'could not sweep the retries waiting for an endpoint'))
        .finally(() => (this.sweeping = null));
    }, SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }
}
