import { RelayLoop, sql, type Kysely, type Logger } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { delivered, recordAttempt, recordDelivered, WORK_COLUMNS, type DeliverySender, type DeliveryWork } from './delivery-attempt.js';
import type { HttpResult } from './webhook-http.js';
import { attemptsInFlight, breakerOpen, type DeliverySettings } from './delivery-settings.js';
import { DELIVERIES_CHANNEL } from './fan-out.js';
import type { EndpointLoops } from './endpoint-loops.js';
import { retriesQueued } from './retry-queue.js';

/** Most deliveries claimed by one query. */
const CLAIM_BATCH = 200;
/** Most successful attempts recorded by one transaction. */
const RECORD_BATCH = 500;

interface Finished {
  work: DeliveryWork;
  result: HttpResult;
  recorded: () => void;
}

/**
 * The dispatcher of one integrations instance (PRODUCT.md §8): makes the first attempt of every
 * committed delivery with no Temporal round trip. Woken by NOTIFY at each fan-out's commit (and a
 * slow poll), it claims due deliveries with `FOR UPDATE SKIP LOCKED` and a lease, commits the
 * claim, then sends: no lock is held across the HTTP call.
 *
 * Isolation: the claim takes at most `endpointConcurrency` deliveries in flight per endpoint,
 * counted across every instance (leased rows, retry loops' attempts included), and interleaves
 * endpoints and organizations (round-robin by organization, random within one), so a slow or
 * failing endpoint only delays itself. A failed first attempt puts the delivery in its
 * endpoint's retry queue (retry-queue.ts); so does a lease that expired (its dispatcher died
 * mid-attempt: due at once). A `failing` endpoint (its circuit breaker open) gets no first
 * attempts: its deliveries join its retry queue, where its loop probes it (a `webhook.ping`, the
 * registration's or a test's, is still attempted at once: it is how a user checks an endpoint).
 *
 * Successful attempts are recorded by group commit: the first one is written at once, and those
 * that finish while that transaction runs are written together by the next (`recordDelivered`),
 * so a burst costs a few transactions, not one per delivery, and an idle delivery waits for no
 * timer. A delivery keeps its lease until its record commits, so the per-endpoint cap and
 * at-least-once hold as before; a batch that fails is retried row by row. Failed attempts are
 * recorded one at a time, as they queue the delivery for a retry.
 */
export class Dispatcher {
  private readonly loop: RelayLoop;
  private inFlight = 0;
  private readonly running = new Set<Promise<void>>();
  private lastSweep = 0;
  private readonly finished: Finished[] = [];
  private recording = false;

  constructor(
    private readonly db: Kysely<IntegrationsDB>,
    private readonly settings: DeliverySettings,
    private readonly sender: DeliverySender,
    private readonly loops: EndpointLoops,
    private readonly logger: Logger,
    private readonly pollMs = 1000,
  ) {
    this.loop = new RelayLoop({ name: 'dispatcher', schema: 'integrations', channel: DELIVERIES_CHANNEL, timing: { pollMs }, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  /** Stops claiming and waits for the attempts in flight (their leases would expire otherwise). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.all(this.running);
  }

  private async pass(): Promise<boolean> {
    if (Date.now() - this.lastSweep >= Math.min(this.pollMs, this.settings.leaseMs / 2)) {
      this.lastSweep = Date.now();
      await this.handOverExpiredLeases();
      await this.holdForFailingEndpoints();
    }
    const free = Math.min(CLAIM_BATCH, this.settings.totalConcurrency - this.inFlight);
    if (free <= 0) return false;
    const claimed = await this.claim(free);
    for (const work of claimed) this.launch(work);
    return claimed.length === free;
  }

  private claim(limit: number): Promise<DeliveryWork[]> {
    const cap = this.settings.endpointConcurrency;
    // A failing endpoint's deliveries are not first-attempted (holdForFailingEndpoints queues them), its pings are.
    return sql<DeliveryWork>`
      with recursive pending(webhook_id) as (
        -- Each endpoint with an unleased pending delivery, one index probe each (deliveries_pending_endpoints),
        -- not every pending delivery read and grouped.
        (select webhook_id from integrations.deliveries where task_queue = ${this.settings.taskQueue} and status = 'pending' and lease_until is null order by webhook_id limit 1)
        union all
        select (
          select d.webhook_id from integrations.deliveries d
          where d.task_queue = ${this.settings.taskQueue} and d.status = 'pending' and d.lease_until is null and d.webhook_id > p.webhook_id
          order by d.webhook_id limit 1
        ) from pending p where p.webhook_id is not null
      ), due as (
        -- A lateral with a limit, not EXISTS: an endpoint at a time, by index. As a semi-join the
        -- planner could hash every pending delivery when a storm outran the table's statistics.
        select w.id as webhook_id, w.organization_id, ${breakerOpen(this.settings)} as failing
        from pending p join integrations.webhooks w on w.id = p.webhook_id
        cross join lateral (
          select 1 from integrations.deliveries d
          where d.webhook_id = p.webhook_id and d.task_queue = ${this.settings.taskQueue} and d.status = 'pending' and d.lease_until is null and d.next_attempt_at <= now()
            and (not ${breakerOpen(this.settings)} or d.event_type = 'webhook.ping')
          limit 1
        ) ready
      ), turns as (
        select webhook_id, failing, row_number() over (partition by organization_id order by random()) as turn from due
      ), picked as (
        select c.id from turns t
        cross join lateral (
          select x.id, row_number() over (order by x.next_attempt_at, x.id) as k from (
            select id, next_attempt_at from integrations.deliveries x
            where x.webhook_id = t.webhook_id and x.task_queue = ${this.settings.taskQueue} and x.status = 'pending' and x.lease_until is null and x.next_attempt_at <= now()
              and (not t.failing or x.event_type = 'webhook.ping')
            order by x.next_attempt_at, x.id
            limit greatest(0, ${cap} - ${attemptsInFlight(sql.ref('t.webhook_id'))})
            for update skip locked
          ) x
        ) c
        order by t.turn + c.k, random()
        limit ${limit}
      )
      -- The picked ids as an array: the rows are found by their key whatever the statistics say (as
      -- a join, a storm's stale statistics once had the planner read every delivery of the
      -- organization's endpoints, 208 000, to lease one).
      update integrations.deliveries d set lease_until = now() + make_interval(secs => ${this.settings.leaseMs / 1000}), updated_at = now()
      from integrations.events e, integrations.webhooks w
      where d.id = any(array(select id from picked)) and e.id = d.event_id and w.id = d.webhook_id and w.status = 'enabled' and w.deleted_at is null
      returning ${WORK_COLUMNS}`
      .execute(this.db)
      .then((r) => r.rows);
  }

  private launch(work: DeliveryWork): void {
    this.inFlight++;
    const run = this.attempt(work).finally(() => {
      this.inFlight--;
      this.running.delete(run);
      this.loop.kick();
    });
    this.running.add(run);
  }

  private async attempt(work: DeliveryWork): Promise<void> {
    try {
      const result = await this.sender.send(work);
      if (delivered(result)) return await new Promise<void>((recorded) => this.recordLater({ work, result, recorded }));
      const { stopLoops } = await recordAttempt(this.db, this.settings, work, result, { by: 'dispatcher' });
      if (stopLoops.length) await this.loops.terminate(stopLoops);
    } catch (err) {
      this.couldNotRecord(err, work);
    }
  }

  private couldNotRecord(err: unknown, work: DeliveryWork): void {
    // The lease runs out and the delivery joins its endpoint's retry queue, due at once.
    this.logger.warn({ err, deliveryId: work.id }, 'could not record a delivery attempt; its endpoint\'s retry loop makes it when its lease expires');
  }

  /** Group commit of successful attempts: one transaction at a time, each taking all that waits. */
  private recordLater(attempt: Finished): void {
    this.finished.push(attempt);
    if (this.recording) return;
    this.recording = true;
    void (async () => {
      while (this.finished.length) {
        const batch = this.finished.splice(0, RECORD_BATCH);
        try {
          await recordDelivered(this.db, this.settings, batch);
        } catch {
          // One by one, so one row the batch could not take (a deadlock, a constraint) does not lose the others.
          for (const { work, result } of batch) await recordDelivered(this.db, this.settings, [{ work, result }]).catch((err: unknown) => this.couldNotRecord(err, work));
        }
        for (const { recorded } of batch) recorded();
      }
      this.recording = false;
    })();
  }

  /** Deliveries whose dispatcher died holding them join their endpoint's retry queue, due at once. */
  private async handOverExpiredLeases(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ webhook_id: string }>`
        with x as (
          select id from integrations.deliveries where task_queue = ${this.settings.taskQueue} and status = 'pending' and lease_until < now() limit 100 for update skip locked
        )
        update integrations.deliveries d set status = 'retrying', lease_until = null, next_attempt_at = now(), updated_at = now()
        from x where d.id = x.id
        returning d.webhook_id`.execute(trx);
      if (rows.length) this.logger.warn({ count: rows.length }, 'deliveries with an expired lease joined their endpoints\' retry queues');
      await retriesQueued(trx, this.settings, rows.map((r) => r.webhook_id));
    });
  }

  /**
   * Deliveries queued for a first attempt before their endpoint became `failing` join its retry
   * queue instead (due when they were: the loop's probe decides when they go).
   */
  private async holdForFailingEndpoints(): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // Driven by the failing endpoints (an index condition on each one's pending deliveries),
      // never by the pending deliveries: during a storm those are tens of thousands, mostly of
      // endpoints that are not failing, and reading them all at each sweep took 0.4 s (88 000
      // read and looked up for 1 126 held).
      const { rows } = await sql<{ webhook_id: string }>`
        with held as (
          update integrations.deliveries d set status = 'retrying', updated_at = now()
          where d.webhook_id = any(array(select w.id from integrations.webhooks w where ${breakerOpen(this.settings)}))
            and d.task_queue = ${this.settings.taskQueue} and d.status = 'pending' and d.lease_until is null and d.event_type <> 'webhook.ping'
          returning d.webhook_id
        )
        select distinct webhook_id from held`.execute(trx);
      await retriesQueued(trx, this.settings, rows.map((r) => r.webhook_id));
    });
  }
}
