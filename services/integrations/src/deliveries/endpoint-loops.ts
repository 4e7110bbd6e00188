import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { KIND, ORGANIZATION_ID, RelayLoop, sql, type Kysely, type Logger, type RelayTiming } from '@hireloop/platform';
import { ENDPOINT_RETRY_LOOP, endpointRetryLoopId, type EndpointRetryLoopArgs } from '@hireloop/contracts/workflows';
import type { IntegrationsDB } from '../db.js';
import { breakerOpen, type DeliverySettings } from './delivery-settings.js';
import { ENDPOINT_WAKES_CHANNEL } from './retry-queue.js';
import { holdEndpoints, recordNotAttempted } from './delivery-attempt.js';
import { cancelLeftoverDeliveries } from './cancel.js';

/** Wake requests handled per pass. */
const BATCH = 100;
/**
 * A loop that has not looked this long after the time it promised (`retry_loop_at`) is woken
 * again: its signal was lost, or its process died between a commit and the signal. Longer than
 * a round (endpoint-rounds.ts: 30 s of attempts plus their 15 s deadline), during which the loop
 * keeps its promise at the round's start.
 */
const OVERDUE = '2 minutes';
const OVERDUE_SWEEP_MS = 10_000;
/** Retrying deliveries whose endpoint has no loop (from before the loops, or a lost request). */
const ORPHAN_SWEEP_MS = 60_000;
/** How often queues past WEBHOOK_ENDPOINT_BACKLOG_MAX are cut back: those that grew since the last look. */
const BACKLOG_SWEEP_MS = 10_000;
/** How often every endpoint with a running loop is looked at, whether or not its queue grew (and at start). */
const BACKLOG_FULL_SWEEP_MS = 60 * 60_000;

type Endpoint = { id: string; organization_id: string };

/**
 * Starts and wakes the endpoints' retry loops (one workflow per endpoint, `endpoint:<webhook>`,
 * on the deliveries lane), for this deployment.
 *
 * `webhooks.retry_loop_at` is the time an endpoint's loop has promised to look next (its timer),
 * null while none runs. A transaction that queues retries writes a wake request
 * (retry-queue.ts); after its commit (NOTIFY, and a 1 s poll), this waker takes the request, and
 * when the endpoint's earliest due retry comes before that promise (or no loop runs), moves the
 * promise earlier and signals the loop with signal-with-start: a loop that has ended starts
 * again, and one that runs just looks. Requests that would not change the promise cost nothing
 * in Temporal, so a storm of failures to one dead endpoint wakes its loop about once.
 *
 * Nothing is lost when a signal is: a loop overdue on its promise is woken again (a sweep every
 * 10 s), a retry whose endpoint has no loop is adopted (every minute, and at start: deliveries
 * retried by the per-delivery workflows before the loops), queues past the backlog limit are cut
 * back from their oldest (every 10 s those that grew, at start and hourly all of them), and so
 * are the deliveries a disable or delete left beyond the batch it cancelled (cancel.ts).
 */
export class EndpointLoops {
  private readonly loop: RelayLoop;
  private readonly due = { overdue: 0, orphans: 0, backlog: 0, fullBacklog: 0 };
  /**
   * Endpoints whose queue grew since the backlog sweep last looked: each retry queued writes a
   * wake request (retry-queue.ts), and this waker took theirs. Only these are counted every 10 s;
   * every queue is counted at start and hourly (a request taken just before a crash).
   */
  private grown = new Set<string>();

  constructor(
    private readonly db: Kysely<IntegrationsDB>,
    private readonly settings: DeliverySettings,
    private readonly temporal: Client,
    private readonly logger: Logger,
    timing: RelayTiming = {},
  ) {
    this.loop = new RelayLoop({ name: 'endpoint-loops', schema: 'integrations', channel: ENDPOINT_WAKES_CHANNEL, timing, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /**
   * Ends the loops of endpoints that were disabled or deleted (after the commit that cancelled
   * their deliveries). A loop not reached stops at its next round, which finds nothing to do.
   */
  async terminate(webhookIds: string[]): Promise<void> {
    await Promise.all(
      webhookIds.map(async (id) => {
        try {
          await this.temporal.workflow.getHandle(endpointRetryLoopId(id)).terminate('the webhook was deleted or disabled');
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) return; // none runs
          this.logger.warn({ err, webhookId: id }, 'could not stop an endpoint\'s retry loop; it stops at its next round');
        }
      }),
    );
  }

  private async pass(): Promise<boolean> {
    const now = Date.now();
    if (now >= this.due.overdue) {
      this.due.overdue = now + OVERDUE_SWEEP_MS;
      await this.signal(await this.overdue());
    }
    if (now >= this.due.orphans) {
      this.due.orphans = now + ORPHAN_SWEEP_MS;
      await this.adoptOrphans();
    }
    if (now >= this.due.backlog) {
      this.due.backlog = now + BACKLOG_SWEEP_MS;
      const full = now >= this.due.fullBacklog;
      if (full) this.due.fullBacklog = now + BACKLOG_FULL_SWEEP_MS;
      const grown = this.grown;
      this.grown = new Set();
      try {
        await this.trimBacklogs(full ? null : [...grown]);
      } catch (err) {
        for (const id of grown) this.grown.add(id);
        if (full) this.due.fullBacklog = 0;
        throw err;
      }
      // What a disable or delete left beyond its first batch (cancel.ts).
      while (await cancelLeftoverDeliveries(this.db)) await new Promise((r) => setImmediate(r));
    }
    const { claimed, taken, wake } = await this.takeRequests();
    for (const id of taken) this.grown.add(id);
    await this.signal(wake);
    return claimed === BATCH;
  }

  /**
   * Takes a batch of this deployment's wake requests and moves each endpoint's promise earlier
   * when its earliest due retry (for a failing endpoint: not before its next probe) comes first.
   * Returns how many it took, the endpoints whose requests it took, and those whose loop must be
   * signalled.
   */
  private takeRequests(): Promise<{ claimed: number; taken: string[]; wake: Endpoint[] }> {
    const { settings } = this;
    return this.db.transaction().execute(async (trx) => {
      // Neither step waits for a lock (skip locked): a transaction queueing retries holds its
      // endpoint's row and then writes a request, so waiting here could close a cycle. A request
      // whose endpoint is busy stays for the next pass.
      const { rows: claimed } = await sql<{ webhook_id: string }>`
        select webhook_id from integrations.endpoint_wakes where task_queue = ${settings.taskQueue}
        order by requested_at limit ${BATCH} for update skip locked`.execute(trx);
      if (claimed.length === 0) return { claimed: 0, taken: [], wake: [] };
      // The endpoints' rows (as a loop's round holds its row while it plans): this and the round
      // see each other's commits.
      const { rows: held } = await sql<{ id: string }>`
        select id from integrations.webhooks where id = any(${claimed.map((r) => r.webhook_id)}) order by id for update skip locked`.execute(trx);
      const ids = held.map((r) => r.id);
      if (ids.length === 0) return { claimed: 0, taken: [], wake: [] };
      await sql`delete from integrations.endpoint_wakes where task_queue = ${settings.taskQueue} and webhook_id = any(${ids})`.execute(trx);
      const { rows: wake } = await sql<Endpoint>`
        update integrations.webhooks w set retry_loop_at = t.at
        from (
          select v.id, greatest(q.due, case when ${breakerOpen(settings, 'v')} then v.probe_at end) as at
          from integrations.webhooks v
          cross join lateral (
            select min(d.next_attempt_at) as due from integrations.deliveries d
            where d.webhook_id = v.id and d.status = 'retrying' and d.task_queue = ${settings.taskQueue} and (d.lease_until is null or d.lease_until <= now())
          ) q
          where v.id = any(${ids}) and v.status = 'enabled' and v.deleted_at is null and q.due is not null
        ) t
        where w.id = t.id and (w.retry_loop_at is null or w.retry_loop_at > t.at)
        returning w.id, w.organization_id`.execute(trx);
      return { claimed: ids.length, taken: ids, wake };
    });
  }

  /** Loops overdue on their promise (with retries of this deployment left): asked to look now. */
  private async overdue(): Promise<Endpoint[]> {
    const { settings } = this;
    // A promise with nothing left to retry anywhere is stale (its loop ended without saying so).
    await sql`
      update integrations.webhooks w set retry_loop_at = null
      where w.retry_loop_at < now() - ${OVERDUE}::interval
        and not exists (select 1 from integrations.deliveries d where d.webhook_id = w.id and d.status = 'retrying')`.execute(this.db);
    const { rows } = await sql<Endpoint>`
      update integrations.webhooks w set retry_loop_at = now()
      where w.retry_loop_at < now() - ${OVERDUE}::interval and w.status = 'enabled' and w.deleted_at is null
        and exists (select 1 from integrations.deliveries d where d.webhook_id = w.id and d.status = 'retrying' and d.task_queue = ${settings.taskQueue})
      returning w.id, w.organization_id`.execute(this.db);
    if (rows.length) this.logger.warn({ endpoints: rows.length }, 'endpoint retry loops overdue: woken again');
    return rows;
  }

  /** Retrying deliveries of this deployment whose endpoint has no loop: a wake request each. */
  private async adoptOrphans(): Promise<void> {
    const { rowCount } = await this.db.transaction().execute(async (trx) => {
      const result = await sql`
        insert into integrations.endpoint_wakes (webhook_id, task_queue)
        select distinct d.webhook_id, ${this.settings.taskQueue}::text from integrations.deliveries d
        join integrations.webhooks w on w.id = d.webhook_id
        where d.status = 'retrying' and d.task_queue = ${this.settings.taskQueue} and w.retry_loop_at is null and w.status = 'enabled' and w.deleted_at is null
        on conflict (webhook_id, task_queue) do nothing`.execute(trx);
      return { rowCount: Number(result.numAffectedRows ?? 0) };
    });
    if (rowCount > 0) {
      this.logger.info({ endpoints: rowCount }, 'retrying deliveries without an endpoint loop: their loops are started');
      this.loop.kick();
    }
  }

  /**
   * At most WEBHOOK_ENDPOINT_BACKLOG_MAX queued retries per endpoint: beyond it, the oldest are
   * failed, each with an attempt-log entry saying so, and a warn line per endpoint. Counts the
   * queues of `endpoints` (those that grew), or of every endpoint with a running loop when null:
   * a count reads up to WEBHOOK_ENDPOINT_BACKLOG_MAX rows, so counting every dead endpoint's full
   * queue every 10 s kept Postgres busy long after a storm, while nothing was queued.
   */
  private async trimBacklogs(endpoints: string[] | null): Promise<void> {
    const { settings } = this;
    const max = settings.backlogMax;
    if (endpoints?.length === 0) return;
    const { rows } = await sql<Endpoint>`
      select w.id, w.organization_id from integrations.webhooks w
      where ${endpoints ? sql`w.id = any(${endpoints})` : sql`w.retry_loop_at is not null`} and (
        select count(*) from (select 1 from integrations.deliveries d
          where d.webhook_id = w.id and d.status = 'retrying' and d.task_queue = ${settings.taskQueue} limit ${max + 1}) x) > ${max}`.execute(this.db);
    for (const endpoint of rows) {
      const { dropped, excess } = await this.db.transaction().execute(async (trx) => {
        await holdEndpoints(trx, [endpoint.id]);
        const queued = sql`integrations.deliveries d where d.webhook_id = ${endpoint.id} and d.status = 'retrying' and d.task_queue = ${settings.taskQueue}`;
        const { count } = (await sql<{ count: number }>`select count(*)::int as count from ${queued}`.execute(trx)).rows[0]!;
        // The oldest not being attempted right now (a probe in flight is skipped for the next). The
        // queue's head (manual retries and replays of a failing endpoint) goes last: the retry a
        // client just asked for, and was answered 202, is not what the limit drops first.
        const { rows: over } = await sql<{ id: string; organization_id: string; webhook_id: string; event_id: string; event_type: string; attempts: number }>`
          with oldest as (
            select d.id from ${queued} and (d.lease_until is null or d.lease_until <= now())
            order by d.queue_head, d.created_at, d.id limit ${Math.max(0, count - max)}
            for update skip locked
          )
          update integrations.deliveries d set status = 'failed', lease_until = null, next_attempt_at = null, queue_head = false, updated_at = now()
          from oldest where d.id = oldest.id
          returning d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempts`.execute(trx);
        await recordNotAttempted(trx, over, `backlog limit: the endpoint had more than ${max} queued retries (WEBHOOK_ENDPOINT_BACKLOG_MAX); the oldest were dropped`);
        return { dropped: over.length, excess: count - max };
      });
      if (dropped > 0) this.logger.warn({ webhookId: endpoint.id, organizationId: endpoint.organization_id, dropped, backlogMax: max }, 'backlog limit: failed the oldest queued retries of an endpoint');
      // Rows another transaction held (a loop leasing them) are dropped at the next sweep, not the hourly one.
      if (dropped < excess) this.grown.add(endpoint.id);
    }
  }

  /** Signal-with-start of each endpoint's loop; a failure is left to the overdue sweep. */
  private async signal(endpoints: Endpoint[]): Promise<void> {
    const { settings, temporal } = this;
    await Promise.all(
      endpoints.map(async (e) => {
        const args: EndpointRetryLoopArgs = { organizationId: e.organization_id, webhookId: e.id, roundsPerRun: settings.loopRoundsPerRun };
        try {
          await temporal.withDeadline(Date.now() + this.loop.callTimeoutMs, () =>
            temporal.workflow.signalWithStart(ENDPOINT_RETRY_LOOP.workflowType, {
              workflowId: endpointRetryLoopId(e.id),
              taskQueue: settings.loopQueue,
              args: [args],
              signal: ENDPOINT_RETRY_LOOP.wakeSignal,
              signalArgs: [],
              // A loop that ended may run again; one that runs is only signalled.
              workflowIdReusePolicy: 'ALLOW_DUPLICATE',
              typedSearchAttributes: [
                { key: ORGANIZATION_ID, value: e.organization_id },
                { key: KIND, value: ENDPOINT_RETRY_LOOP.kind },
              ],
            }),
          );
        } catch (err) {
          this.logger.warn({ err, webhookId: e.id }, 'could not wake an endpoint\'s retry loop; the overdue sweep will');
        }
      }),
    );
  }
}
