import { sql, type Kysely, type Logger, type Transaction } from '@hireloop/platform';
import type { EndpointRound } from '@hireloop/contracts/workflows';
import type { Client } from '@temporalio/client';
import type { IntegrationsDB } from '../db.js';
import { recordAttempt, recordNotAttempted, WORK_COLUMNS, type DeliverySender, type DeliveryWork } from './delivery-attempt.js';
import { attemptsInFlight, breakerOpen, scheduleHorizons, type DeliverySettings } from './delivery-settings.js';
import type { EndpointLoops } from './endpoint-loops.js';

/** A round launches attempts for this long, then ends when they have (a round stays well inside its activity's deadline). */
const ROUND_MS = 30_000;
/** Due retries but no free place under the endpoint's cap (first attempts hold it): look again after this. */
const BUSY_WAIT_MS = 1000;
/** While a round's attempts are in flight, retries that came due meanwhile are leased this often (and as attempts end). */
const REFILL_MS = 1000;
/** A round heartbeats its activity this often (ENDPOINT_ROUND's heartbeat timeout is 20 s): a dead instance's round is asked again soon. */
const HEARTBEAT_MS = 5000;

export interface EndpointRoundsDeps {
  db: Kysely<IntegrationsDB>;
  settings: DeliverySettings;
  sender: DeliverySender;
  temporal: Client;
  loops: EndpointLoops;
  logger: Logger;
}

type Leased = DeliveryWork & { queue_head: boolean; created_at: Date };

/** What a round is answered at once: its attempts are under way (`accepted`), or what the loop does next. */
export type RoundAnswer = { outcome: 'accepted' } | EndpointRound;

/**
 * The rounds of the endpoints' retry loops (PRODUCT.md §8). A loop (workflows'
 * retry-webhook-endpoint.workflow.ts, `endpoint:<webhook>`) asks for a round through its
 * activity; the round makes the endpoint's due attempts here, where the payloads, the secrets
 * and the keep-alive HTTP pools are, and completes the activity with what the loop does next:
 * look again at once, sleep until a time, or end. The worker's slot is free while receivers take
 * their time, so hanging endpoints hold no worker slots.
 *
 * A round leases the endpoint's due retries in queue order (the head of the queue first: manual
 * retries and replays of a failing endpoint; then by creation), up to its cap of attempts in
 * flight (WEBHOOK_ENDPOINT_CONCURRENCY, counted with the dispatcher's first attempts, across
 * every instance), and leases more as attempts end and retries come due, for up to 30 s. A failing endpoint (its
 * circuit breaker open) is probed instead: one due retry at a time, when its probe is due; the
 * first success closes the breaker and the same round drains the queue at the cap. A failing
 * endpoint's retries that outlive their schedule (about 28 h) leave the queue `failed`.
 *
 * An attempt holds its delivery by a lease (WEBHOOK_LEASE_MS, past the HTTP deadline): should
 * this process die mid-round, its heartbeats stop, the loop asks again 20 s later, and the leases
 * have expired by then (or soon: those rows are due at once), so each delivery is attempted
 * again: at least once, and one recorded attempt per attempt made.
 */
export class EndpointRounds {
  private readonly running = new Set<Promise<void>>();
  private stopping = false;
  private readonly horizons: number[];

  constructor(private readonly deps: EndpointRoundsDeps) {
    this.horizons = scheduleHorizons(deps.settings.retrySchedule);
  }

  /** A round for the loop of `webhookId` whose activity holds `taskToken` (base64). */
  async take(organizationId: string, input: { webhookId: string; taskToken: string }): Promise<RoundAnswer> {
    const first = await this.plan(organizationId, input.webhookId, true);
    if (first.leased.length === 0) return first.next;
    const run = this.run(organizationId, input, first).finally(() => this.running.delete(run));
    this.running.add(run);
    return { outcome: 'accepted' };
  }

  /** Stops leasing, and waits for the rounds in flight to record their attempts and answer. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running);
  }

  private async run(organizationId: string, input: { webhookId: string; taskToken: string }, first: { leased: Leased[]; probe: boolean }): Promise<void> {
    const { temporal, logger } = this.deps;
    const taskToken = Buffer.from(input.taskToken, 'base64');
    const until = Date.now() + ROUND_MS;
    const inFlight = new Map<string, Promise<void>>();
    let lost = 0;
    const heartbeat = setInterval(() => void temporal.activity.heartbeat(taskToken).catch(() => undefined), HEARTBEAT_MS);
    try {
      let batch = first;
      for (;;) {
        for (const work of batch.leased) {
          const attempt = this.attempt(work, batch.probe)
            .catch((err: unknown) => {
              // Not recorded: its lease runs out and a later round makes it again.
              lost++;
              logger.warn({ err, deliveryId: work.id }, 'could not record a retry attempt; it is made again once its lease expires');
            })
            .finally(() => inFlight.delete(work.id));
          inFlight.set(work.id, attempt);
        }
        if (inFlight.size === 0) break;
        await Promise.race([...inFlight.values(), new Promise((r) => setTimeout(r, REFILL_MS).unref())]);
        if (Date.now() >= until || this.stopping) {
          await Promise.all(inFlight.values());
          break;
        }
        batch = await this.leaseMore(input.webhookId);
      }
      const { next } = await this.plan(organizationId, input.webhookId, false);
      if (lost > 0) logger.info({ webhookId: input.webhookId, lost }, 'a round ended with attempts not recorded');
      await temporal.activity.complete(taskToken, next).catch((err: unknown) => {
        // The attempts are recorded; the heartbeats stop, and the loop asks again after their timeout.
        logger.warn({ err, webhookId: input.webhookId }, 'could not complete an endpoint round\'s activity');
      });
    } catch (err) {
      logger.warn({ err, webhookId: input.webhookId }, 'an endpoint round failed; its loop asks again');
      await Promise.all(inFlight.values());
      await temporal.activity.fail(taskToken, new Error('The round could not be completed.')).catch(() => undefined);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async attempt(work: Leased, probe: boolean): Promise<void> {
    const { db, settings, sender, loops } = this.deps;
    const result = await sender.send(work);
    const { stopLoops } = await recordAttempt(db, settings, work, result, { by: 'loop', probe });
    // Disabled by this failure (5 days failing): this round is its loop's last; nothing to stop but others.
    const others = stopLoops.filter((id) => id !== work.webhook_id);
    if (others.length) await loops.terminate(others);
  }

  /**
   * Holding the endpoint's row (so that queueing and the loop's promise see each other): leases
   * the due retries (`lease`), fails what outlived its schedule while failing, and promises the
   * loop's next look (`webhooks.retry_loop_at`): now while a round runs, else the time it answers.
   */
  private plan(organizationId: string, webhookId: string, lease: boolean): Promise<{ leased: Leased[]; probe: boolean; next: EndpointRound }> {
    const { db, settings } = this.deps;
    return db.transaction().execute(async (trx) => {
      // FOR NO KEY UPDATE: exclusive against the attempt recorders, the wakers and a disable, as
      // FOR UPDATE was, but not against a fan-out's FOR KEY SHARE (its queueing reaches the loop
      // by a wake request, retry-queue.ts).
      const endpoint = await this.endpoint(trx, webhookId).where('organization_id', '=', organizationId).forNoKeyUpdate().executeTakeFirst();
      if (!endpoint?.enabled) {
        // Disabling or deleting cancelled its queue; whatever a race left is cancelled too.
        await trx.updateTable('integrations.deliveries').set({ status: 'cancelled', lease_until: null, next_attempt_at: null, updated_at: new Date() })
          .where('webhook_id', '=', webhookId).where('status', '=', 'retrying').where('task_queue', '=', settings.taskQueue).execute();
        await trx.updateTable('integrations.webhooks').set({ retry_loop_at: null }).where('id', '=', webhookId).execute();
        return { leased: [], probe: false, next: { outcome: 'ended' } };
      }
      // The probe first: a due delivery at the last place of its schedule is probed, not dropped
      // the moment that place comes due (its horizon is 0). Then what is held past its schedule
      // ends; a leased delivery is not held.
      const leased = lease ? await this.leaseDue(trx, webhookId, endpoint.failing) : [];
      if (endpoint.failing) await this.expireHeld(trx, webhookId);
      if (leased.length) {
        await trx.updateTable('integrations.webhooks').set({ retry_loop_at: sql`now()` }).where('id', '=', webhookId).execute();
        return { leased, probe: endpoint.failing, next: { outcome: 'again' } };
      }
      const seconds = await this.nextLook(trx, webhookId, endpoint.failing);
      await trx.updateTable('integrations.webhooks').set({ retry_loop_at: seconds === null ? null : sql<Date>`now() + make_interval(secs => ${seconds})` }).where('id', '=', webhookId).execute();
      if (seconds === null) return { leased: [], probe: false, next: { outcome: 'ended' } };
      return { leased: [], probe: false, next: seconds <= 0 ? { outcome: 'again' } : { outcome: 'sleep', seconds } };
    });
  }

  /** During a round, as attempts end: more due retries up to the cap (the breaker as it is now). */
  private leaseMore(webhookId: string): Promise<{ leased: Leased[]; probe: boolean }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const endpoint = await this.endpoint(trx, webhookId).executeTakeFirst();
      if (!endpoint?.enabled) return { leased: [], probe: false };
      return { leased: await this.leaseDue(trx, webhookId, endpoint.failing), probe: endpoint.failing };
    });
  }

  /** Whether the endpoint is enabled (not deleted either), and `failing` (its breaker open). */
  private endpoint(trx: Transaction<IntegrationsDB>, webhookId: string) {
    return trx
      .selectFrom('integrations.webhooks')
      .select([sql<boolean>`status = 'enabled' and deleted_at is null`.as('enabled'), sql<boolean>`${breakerOpen(this.deps.settings, 'integrations.webhooks')}`.as('failing')])
      .where('id', '=', webhookId);
  }

  /**
   * Leases due retries in queue order under the endpoint's cap; while it is failing, one (the
   * probe) when the probe is due and no attempt to it is in flight.
   */
  private async leaseDue(trx: Transaction<IntegrationsDB>, webhookId: string, failing: boolean): Promise<Leased[]> {
    const { settings } = this.deps;
    const inFlight = attemptsInFlight(webhookId);
    const room = failing
      // No probe time yet (the breaker's threshold was lowered under a run of failures): probe now.
      ? sql`case when ${inFlight} = 0 and (select coalesce(probe_at, now()) <= now() from integrations.webhooks where id = ${webhookId}) then 1 else 0 end`
      : sql`greatest(0, ${settings.endpointConcurrency} - ${inFlight})`;
    const { rows } = await sql<Leased>`
      with due as (
        select id from integrations.deliveries
        where webhook_id = ${webhookId} and status = 'retrying' and task_queue = ${settings.taskQueue} and next_attempt_at <= now()
          and (lease_until is null or lease_until <= now())
        order by queue_head desc, created_at, id
        limit ${room}
        for update skip locked
      )
      update integrations.deliveries d set lease_until = now() + make_interval(secs => ${settings.leaseMs / 1000}), updated_at = now()
      from integrations.events e, integrations.webhooks w
      where d.id = any(array(select id from due)) and e.id = d.event_id and w.id = d.webhook_id
      returning ${WORK_COLUMNS}, d.queue_head, d.created_at`.execute(trx);
    // Launched in queue order.
    return rows.sort((a, b) => Number(b.queue_head) - Number(a.queue_head) || a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** A failing endpoint's retries held past their schedule's end: `failed`, with an attempt-log entry. */
  private async expireHeld(trx: Transaction<IntegrationsDB>, webhookId: string): Promise<void> {
    const { settings } = this.deps;
    const { rows } = await sql<{ id: string; organization_id: string; webhook_id: string; event_id: string; event_type: string; attempts: number }>`
      update integrations.deliveries d set status = 'failed', lease_until = null, next_attempt_at = null, queue_head = false, updated_at = now()
      where d.webhook_id = ${webhookId} and d.status = 'retrying' and d.task_queue = ${settings.taskQueue} and (d.lease_until is null or d.lease_until <= now())
        and d.next_attempt_at + make_interval(secs => ${this.horizon('d')}) <= now()
      returning d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.attempts`.execute(trx);
    await recordNotAttempted(trx, rows, 'not attempted: the endpoint was failing until this delivery\'s retry schedule ended');
  }

  /** Seconds from a retrying delivery's due time to the end of its schedule. */
  private horizon(alias: string) {
    return sql<number>`(${this.horizons}::float8[])[least(${sql.ref(`${alias}.retry_step`)}, ${this.horizons.length - 1}) + 1]`;
  }

  /**
   * In how many seconds the loop must look next (by the database's clock), or null when the
   * endpoint has no retry left: at its earliest due retry; while it is failing, not before its
   * next probe, but at the earliest end of a held retry's schedule; with an attempt in flight
   * elsewhere, when its lease ends; with due retries and no free place, shortly.
   */
  private async nextLook(trx: Transaction<IntegrationsDB>, webhookId: string, failing: boolean): Promise<number | null> {
    const { settings } = this.deps;
    const idle = sql`not coalesce(d.lease_until > now(), false)`;
    const { rows } = await sql<{ queued: number; due: number | null; probe: number | null; leased: number | null; horizon: number | null }>`
      select count(*)::int as queued,
        extract(epoch from min(d.next_attempt_at) filter (where ${idle}) - now())::float8 as due,
        extract(epoch from (select probe_at from integrations.webhooks where id = ${webhookId}) - now())::float8 as probe,
        extract(epoch from min(d.lease_until) filter (where d.lease_until > now()) - now())::float8 as leased,
        extract(epoch from min(d.next_attempt_at + make_interval(secs => ${this.horizon('d')})) filter (where ${idle}) - now())::float8 as horizon
      from integrations.deliveries d
      where d.webhook_id = ${webhookId} and d.status = 'retrying' and d.task_queue = ${settings.taskQueue}`.execute(trx);
    const { queued, due, probe, leased, horizon } = rows[0]!;
    if (queued === 0) return null;
    const busy = BUSY_WAIT_MS / 1000;
    const times: number[] = [];
    if (leased !== null) times.push(leased);
    if (due !== null) {
      const earliest = failing && probe !== null ? Math.max(due, probe) : due;
      times.push(earliest <= 0 ? busy : earliest);
    }
    if (failing && horizon !== null) times.push(Math.max(horizon, busy));
    return times.length ? Math.max(0, Math.min(...times)) : busy;
  }
}
