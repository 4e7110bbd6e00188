import { Webhook as Signer } from 'standardwebhooks';
import { newId, sql, type EventInviteUrls, type Kysely, type SecretBox, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { retryAfterSeconds, type HttpResult, type WebhookHttp } from './webhook-http.js';
import { breakerOpen, type DeliverySettings } from './delivery-settings.js';
import { cancelEndpointDeliveries } from './cancel.js';
import { retriesQueued } from './retry-queue.js';

/** An endpoint failing every delivery for this long is disabled (PRODUCT.md §8). */
const DISABLE_AFTER_FAILING = '5 days';
/** Longest wait a receiver's Retry-After may ask for. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** A delivery with what its attempt needs: the event envelope and the endpoint (its secrets sealed). */
export interface DeliveryWork {
  id: string;
  organization_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  generation: number;
  attempts: number;
  /** Failed attempts of this generation (its place in the retry schedule). */
  retry_step: number;
  payload: { id: string; type: string; createdAt: string; data: unknown };
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
}

/** The columns of DeliveryWork, for a query over deliveries `d`, events `e` and webhooks `w`. */
export const WORK_COLUMNS = sql`d.id, d.organization_id, d.webhook_id, d.event_id, d.event_type, d.generation, d.attempts, d.retry_step, e.payload,
  w.url, w.secret_sealed, w.previous_secret_sealed, w.previous_secret_until`;

export type Outcome =
  | { outcome: 'delivered' }
  | { outcome: 'failed'; retryAfterSeconds: number | null }
  /** 410 Gone, or the endpoint got disabled by this failure: no more attempts. */
  | { outcome: 'gone' };

const ok = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Signs and sends one delivery, per Standard Webhooks with the `standardwebhooks` library: the
 * `webhook-id` is the event id on every attempt; during a rotation's overlap the signature
 * header carries the new and the old signature (`v1,<new> v1,<old>`). A sealed invite URL of the
 * stored event is rendered into the body (event-invite-urls.ts in the platform).
 */
export class DeliverySender {
  private readonly signers = new Map<string, Signer>();

  constructor(private readonly box: SecretBox, private readonly http: WebhookHttp, private readonly inviteUrls: EventInviteUrls) {}

  private signer(sealed: string): Signer {
    let signer = this.signers.get(sealed);
    if (!signer) {
      if (this.signers.size > 5000) this.signers.clear();
      signer = new Signer(this.box.open(sealed));
      this.signers.set(sealed, signer);
    }
    return signer;
  }

  send(work: DeliveryWork): Promise<HttpResult> {
    const { id, type, createdAt, data } = work.payload;
    const body = JSON.stringify({ id, type, createdAt, data: this.inviteUrls.render(data) });
    const now = new Date();
    const sealed = [work.secret_sealed];
    if (work.previous_secret_sealed && work.previous_secret_until && work.previous_secret_until > now) sealed.push(work.previous_secret_sealed);
    const signature = sealed.map((s) => this.signer(s).sign(id, now, body)).join(' ');
    return this.http.post(work.webhook_id, work.url, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': signature }, body);
  }
}

/**
 * Records one attempt and what follows from it, in one transaction: the attempt log row; the
 * delivery's state; the endpoint's health: a 2xx ends its run of failures (and closes its circuit
 * breaker); a failure lengthens it: at WEBHOOK_BREAKER_FAILURES the endpoint is `failing` and its
 * first probe is due after the schedule's first wait, each failed probe waiting the next one; 410
 * disables it, and so does a run of 5 days, which also cancels its other deliveries.
 *
 * `then` says what made the attempt: `dispatcher` (a first attempt: a failed one joins the
 * endpoint's retry queue), or `loop` (the endpoint's retry loop; `probe` when the endpoint was
 * failing): a failure waits the schedule's next wait (or the receiver's Retry-After, up to 24 h),
 * or fails the delivery when its schedule is exhausted.
 * Returns the outcome and the endpoints whose retry loops to stop (one just disabled).
 */
export async function recordAttempt(
  db: Kysely<IntegrationsDB>,
  settings: DeliverySettings,
  work: DeliveryWork,
  result: HttpResult,
  then: { by: 'dispatcher' } | { by: 'loop'; probe: boolean },
): Promise<{ outcome: Outcome; stopLoops: string[] }> {
  return db.transaction().execute(async (trx) => {
    await holdEndpoints(trx, [work.webhook_id]);
    const number = (await countAttempts(trx, [work]))[0]!;
    await trx.insertInto('integrations.delivery_attempts').values(attemptRow(work, result, number)).execute();
    const last = { last_status_code: result.status, last_error: result.error?.slice(0, 1024) ?? null, last_latency_ms: result.latencyMs, last_attempt_at: new Date(), updated_at: new Date() };
    const delivery = trx
      .updateTable('integrations.deliveries')
      .where('id', '=', work.id)
      .where('generation', '=', work.generation)
      .where('status', 'in', ['pending', 'retrying']);

    if (ok(result.status)) {
      await delivery.set({ ...last, status: 'delivered', lease_until: null, next_attempt_at: null, queue_head: false }).execute();
      await endpointAnswered(trx, settings, [work.webhook_id]);
      return { outcome: { outcome: 'delivered' }, stopLoops: [] };
    }

    const asked = result.status === 429 || result.status === 503 ? retryAfterSeconds(result.retryAfter) : null;
    const askedWait = Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS);
    let disabledReason: string | null = null;
    if (result.status === 410) {
      disabledReason = 'The endpoint answered 410 Gone.';
    } else {
      const probe = then.by === 'loop' && then.probe;
      const waits = settings.retrySchedule;
      // The wait before the next probe: the schedule's first at the opening, then one further per
      // failed probe (a receiver's Retry-After, if longer).
      const nextProbe = sql<number>`greatest(${askedWait}::float8, (${waits}::float8[])[least(probes_failed + 1, ${waits.length - 1}) + 1])`;
      const { expired } = await trx
        .updateTable('integrations.webhooks')
        .where('id', '=', work.webhook_id)
        .set({
          failing_since: sql<Date>`coalesce(failing_since, now())`,
          consecutive_failures: sql`consecutive_failures + 1`,
          probes_failed: probe ? sql`probes_failed + 1` : sql`probes_failed`,
          probe_at: probe
            ? sql<Date>`now() + make_interval(secs => ${nextProbe})`
            : sql<Date>`case when probe_at is null and consecutive_failures + 1 >= ${settings.breakerFailures} then now() + make_interval(secs => ${Math.max(waits[0] ?? 0, askedWait)}) else probe_at end`,
        })
        .returning(sql<boolean>`failing_since < now() - ${DISABLE_AFTER_FAILING}::interval`.as('expired'))
        .executeTakeFirstOrThrow();
      if (expired) disabledReason = 'Every delivery failed for 5 days.';
    }
    if (disabledReason) {
      await delivery.set({ ...last, status: 'failed', lease_until: null, next_attempt_at: null, queue_head: false }).execute();
      await trx.updateTable('integrations.webhooks').where('id', '=', work.webhook_id).set({ status: 'disabled', disabled_reason: disabledReason, updated_at: new Date() }).execute();
      return { outcome: { outcome: 'gone' }, stopLoops: await cancelEndpointDeliveries(trx, work.webhook_id) };
    }

    const scheduled = settings.retrySchedule[work.retry_step];
    const wait = scheduled === undefined ? null : Math.max(scheduled, askedWait);
    const moved = await delivery
      .set({
        ...last,
        status: wait === null ? 'failed' : 'retrying',
        retry_step: sql`retry_step + 1`,
        lease_until: null,
        // A delivery at the head of the queue (a manual retry, a replay) keeps its place when its
        // attempt fails: it goes first again once due, or when the endpoint answers again.
        queue_head: wait === null ? false : sql<boolean>`queue_head`,
        next_attempt_at: wait === null ? null : sql<Date>`now() + make_interval(secs => ${wait})`,
      })
      .returning('id')
      .executeTakeFirst();
    // A first attempt's failure joins the retry queue: its loop must know (a loop's own need not).
    if (moved && wait !== null && then.by === 'dispatcher') await retriesQueued(trx, settings, [work.webhook_id]);
    return { outcome: { outcome: 'failed', retryAfterSeconds: asked }, stopLoops: [] };
  });
}

/**
 * A 2xx from these endpoints: each one's run of failures ends and its circuit breaker closes. A
 * failing one's loop, sleeping until its next probe, must look now: its queue drains, in order.
 * Due now, with no probe left to wait for: the deliveries put at the head of its queue while it
 * was failing (a manual retry, a replay), which were due with that probe and go first; and, when
 * its breaker was open, those whose last attempt failed in that run of failures (the probes, and
 * the attempts that opened the breaker), which the outage explains. Otherwise a failed probe's
 * delivery waited for its own next time while newer ones went before it. Below the breaker's
 * threshold a failure keeps its own schedule (and its Retry-After), whatever else succeeds.
 */
async function endpointAnswered(trx: Transaction<IntegrationsDB>, settings: DeliverySettings, webhookIds: string[]): Promise<void> {
  const ids = [...new Set(webhookIds)];
  // The callers hold these endpoints' rows (holdEndpoints): the run's start read here is the one replaced.
  const { rows } = await sql<{ id: string; outage: Date | null }>`
    update integrations.webhooks w set failing_since = null, consecutive_failures = 0, probes_failed = 0, probe_at = null
    from (select o.id, o.failing_since, ${breakerOpen(settings, 'o')} as open from integrations.webhooks o where o.id = any(${ids})) run
    where w.id = run.id and (w.failing_since is not null or w.consecutive_failures > 0 or w.probe_at is not null)
    returning w.id, case when run.open then run.failing_since end as outage`.execute(trx);
  if (rows.length === 0) return;
  const closed = rows.map((r) => r.id);
  await sql`
    update integrations.deliveries d set next_attempt_at = now(), updated_at = now()
    from (select unnest(${closed}::text[]) as id, unnest(${rows.map((r) => r.outage)}::timestamptz[]) as outage) run
    where d.webhook_id = run.id and d.status = 'retrying' and d.next_attempt_at > now()
      and (d.queue_head or d.last_attempt_at >= date_trunc('milliseconds', run.outage))`.execute(trx);
  await retriesQueued(trx, settings, closed);
}

/** How the reason of an attempt-log entry for an attempt that was not made begins. */
const NOT_ATTEMPTED = ['backlog limit:', 'not attempted:'] as const;
/** An attempt-log row of an attempt that was made (not a delivery dropped from its queue): what the success rate counts. */
export const attemptWasMade = sql<boolean>`not (status_code is null and coalesce(error like any(${NOT_ATTEMPTED.map((prefix) => `${prefix}%`)}::text[]), false))`;

/**
 * Deliveries that leave their retry queue without an attempt (the backlog limit; a failing
 * endpoint that held them past their schedule): each gets an attempt-log entry with the reason,
 * numbered as the attempt that was not made, so the delivery log says what became of it.
 */
export async function recordNotAttempted(
  trx: Transaction<IntegrationsDB>,
  deliveries: { id: string; organization_id: string; webhook_id: string; event_id: string; event_type: string; attempts: number }[],
  reason: `${(typeof NOT_ATTEMPTED)[number]} ${string}`,
): Promise<void> {
  if (deliveries.length === 0) return;
  const numbers = await entryNumbers(trx, deliveries.map((d) => d.id), new Map(deliveries.map((d) => [d.id, d.attempts])), false);
  await trx
    .insertInto('integrations.delivery_attempts')
    .values(deliveries.map((d, i) => ({
      id: newId('dla'), delivery_id: d.id, organization_id: d.organization_id, webhook_id: d.webhook_id, event_id: d.event_id, event_type: d.event_type,
      attempt: numbers[i]!, status_code: null, latency_ms: 0, response_excerpt: null, error: reason.slice(0, 1024),
    })))
    .execute();
}

/**
 * Locks the endpoints' rows before any of their deliveries' rows, in the one mode the recorder
 * may need (FOR NO KEY UPDATE: it updates the endpoint's health): a disable or a delete takes the
 * webhook FOR UPDATE, then its deliveries, so a recorder never holds a delivery while it waits for
 * the webhook, and never upgrades a weaker lock on the webhook (KEY SHARE, as the attempt log's
 * foreign key takes it) while a disable waits for it. Either made a deadlock (found in CI: a
 * probe's failure against a DELETE). A fan-out's FOR KEY SHARE is not blocked by it.
 */
export async function holdEndpoints(trx: Transaction<IntegrationsDB>, webhookIds: string[]): Promise<void> {
  await sql`select 1 from integrations.webhooks where id = any(${[...new Set(webhookIds)].sort()}::text[]) order by id for no key update`.execute(trx);
}

/**
 * The last entry number of each delivery's attempt log. A statement of its own, after the caller
 * locked the deliveries' rows: it sees the entries of a recorder that held a lock before and
 * committed (one statement's snapshot, taken before the lock wait, would not).
 */
async function lastEntries(trx: Transaction<IntegrationsDB>, deliveryIds: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ id: string; last: number }>`
    select delivery_id as id, max(attempt) as last from integrations.delivery_attempts
    where delivery_id = any(${[...new Set(deliveryIds)]}::text[]) group by delivery_id`.execute(trx);
  return new Map(rows.map((r) => [r.id, r.last]));
}

/**
 * The numbers of the next attempt-log entries of deliveries whose rows the caller holds, one per
 * occurrence of a delivery in `deliveryIds`: past both its attempts made (`attempts`, after this
 * call's count when `counted`) and its log's last entry (an entry for an attempt that was not made
 * takes a number, and so does the attempt a later manual retry makes).
 */
async function entryNumbers(trx: Transaction<IntegrationsDB>, deliveryIds: string[], attempts: Map<string, number>, counted: boolean): Promise<number[]> {
  const last = await lastEntries(trx, deliveryIds);
  const times = new Map<string, number>();
  for (const id of deliveryIds) times.set(id, (times.get(id) ?? 0) + 1);
  const next = new Map<string, number>();
  return deliveryIds.map((id) => {
    const made = attempts.get(id) ?? 0;
    const first = Math.max(counted ? made - times.get(id)! + 1 : made + 1, (last.get(id) ?? 0) + 1);
    const n = next.get(id) ?? first;
    next.set(id, n + 1);
    return n;
  });
}

/**
 * Counts the attempts made of deliveries (whatever their generation or status by now: a manual
 * retry while an attempt was in flight makes two, and both count; a delivery may appear more
 * than once) and gives each its number in the attempt log, in `works`' order. The deliveries' row
 * locks order concurrent recorders, so no two entries share a number. A delivery gone meanwhile
 * (purged) keeps the number it was read with.
 */
async function countAttempts(trx: Transaction<IntegrationsDB>, works: DeliveryWork[]): Promise<number[]> {
  const ids = works.map((w) => w.id);
  const { rows } = await sql<{ id: string; attempts: number }>`
    update integrations.deliveries d set attempts = d.attempts + v.n
    from (select id, count(*)::int as n from unnest(${ids}::text[]) as u(id) group by id) v
    where d.id = v.id
    returning d.id, d.attempts`.execute(trx);
  const attempts = new Map(rows.map((r) => [r.id, r.attempts]));
  const numbers = await entryNumbers(trx, ids.filter((id) => attempts.has(id)), attempts, true);
  let i = 0;
  return works.map((w) => (attempts.has(w.id) ? numbers[i++]! : w.attempts + 1));
}

/** The attempt log row of one attempt, numbered `attempt` (countAttempts). */
function attemptRow(work: DeliveryWork, result: HttpResult, attempt: number) {
  return {
    id: newId('dla'),
    delivery_id: work.id,
    organization_id: work.organization_id,
    webhook_id: work.webhook_id,
    event_id: work.event_id,
    event_type: work.event_type,
    attempt,
    status_code: result.status,
    latency_ms: result.latencyMs,
    response_excerpt: result.excerpt?.slice(0, 1024) ?? null,
    error: result.error?.slice(0, 1024) ?? null,
  };
}

/** Whether an attempt's answer delivered it (2xx). */
export const delivered = (result: HttpResult) => ok(result.status);

/**
 * Records many successful (2xx) attempts in one transaction, with what `recordAttempt` writes for
 * each: the attempt log rows, each delivery marked delivered (if it is still this generation's
 * and not cancelled meanwhile), and the failure run of their endpoints cleared. A few statements
 * whatever the count: the dispatcher's group commit (dispatcher.ts).
 */
export async function recordDelivered(db: Kysely<IntegrationsDB>, settings: DeliverySettings, attempts: { work: DeliveryWork; result: HttpResult }[]): Promise<void> {
  if (attempts.length === 0) return;
  const ids = attempts.map((a) => a.work.id);
  const generations = attempts.map((a) => a.work.generation);
  const codes = attempts.map((a) => a.result.status);
  const latencies = attempts.map((a) => a.result.latencyMs);
  await db.transaction().execute(async (trx) => {
    await holdEndpoints(trx, attempts.map((a) => a.work.webhook_id));
    const numbers = await countAttempts(trx, attempts.map((a) => a.work));
    await trx.insertInto('integrations.delivery_attempts').values(attempts.map((a, i) => attemptRow(a.work, a.result, numbers[i]!))).execute();
    await sql`
      update integrations.deliveries d
      set status = 'delivered', lease_until = null, next_attempt_at = null, queue_head = false,
        last_status_code = v.status_code, last_error = null, last_latency_ms = v.latency_ms, last_attempt_at = now(), updated_at = now()
      from unnest(${ids}::text[], ${generations}::int[], ${codes}::int[], ${latencies}::int[]) as v(id, generation, status_code, latency_ms)
      where d.id = v.id and d.generation = v.generation and d.status in ('pending', 'retrying')`.execute(trx);
    await endpointAnswered(trx, settings, attempts.map((a) => a.work.webhook_id));
  });
}
