import { RelayLoop, sql, type Kysely, type Logger, type Transaction } from '@hireloop/platform';
import type { IntegrationsDB } from '../db.js';
import { breakerOpen, type DeliverySettings } from './delivery-settings.js';
import { DEFERRED_FAN_OUT_CHANNEL, writeDeliveries, type NewDelivery } from './fan-out.js';

/** Most deferred events taken by one transaction. */
const TAKE_BATCH = 200;

type Settings = Pick<DeliverySettings, 'taskQueue' | 'breakerFailures' | 'deferredRate' | 'deferredBurst'>;

interface Deferred {
  event_id: string;
  organization_id: string;
  event_type: string;
  webhook_ids: string[];
  created_at: Date;
}

/**
 * The writer of deferred deliveries, one per integrations instance, in the delivery lane.
 *
 * A fan-out writes the deliveries to endpoints that are `failing` (their circuit breaker open),
 * whose last attempt failed, or slow (an attempt in flight for over SLOW_ATTEMPT_MS) as one row
 * per event (`deferred_fan_out`, fan-out.ts): they would wait for their endpoint's probe, or
 * behind its cap, or likely fail, anyway. This writer turns those rows into deliveries (each organization's oldest first,
 * the organizations in turn): retrying if the
 * endpoint is failing then, else pending (a first attempt). Each has the fan-out's time as its
 * creation and earliest due time, so the endpoint's queue order and schedule are what they
 * would have been.
 *
 * It writes at most WEBHOOK_DEFERRED_RATE deliveries a second, with bursts of up to
 * WEBHOOK_DEFERRED_BURST (a token bucket). Why: a storm of events to dead endpoints wrote every
 * delivery row as fast as the events came (200 000 rows in 15–40 s for 100 endpoints), which
 * took a core of Postgres from the work started meanwhile (evaluations, erasures). The same rows
 * are written, spread over time; the events themselves are kept at once.
 *
 * Woken by NOTIFY at each deferring fan-out's commit, and a slow poll. A crash loses nothing: a
 * row leaves the table in the transaction that writes its deliveries. An endpoint disabled or
 * deleted before its deliveries were written gets them `cancelled` (as a disable leaves its
 * queue); cancel.ts writes those of the endpoint it disables at once.
 */
export class DeferredFanOut {
  private readonly loop: RelayLoop;
  private tokens: number;
  private refilledAt = Date.now();
  private stopping = false;
  /** Ends the wait for budget at once (stop()). */
  private cutSleep: (() => void) | null = null;

  constructor(
    private readonly db: Kysely<IntegrationsDB>,
    private readonly settings: Settings,
    logger: Logger,
    pollMs = 1000,
  ) {
    this.tokens = settings.deferredBurst;
    this.loop = new RelayLoop({ name: 'deferred-fan-out', schema: 'integrations', channel: DEFERRED_FAN_OUT_CHANNEL, timing: { pollMs }, logger, pass: () => this.pass() });
  }

  start(databaseUrl?: string): Promise<void> {
    return this.loop.start(databaseUrl);
  }

  async stop(): Promise<void> {
    const stopped = this.loop.stop();
    this.stopping = true;
    this.cutSleep?.();
    await stopped;
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.settings.deferredBurst, this.tokens + ((now - this.refilledAt) / 1000) * this.settings.deferredRate);
    this.refilledAt = now;
  }

  /** One transaction's worth, within the budget: true while more may be left. */
  private async pass(): Promise<boolean> {
    this.refill();
    // Out of budget (only after writing): wait for a second's worth, then go on. One transaction
    // a second while a backlog drains, not ten: each also wakes the endpoints' loop waker, whose
    // look at 100 endpoints ten times a second cost more than the rows.
    if (this.tokens < 1) {
      if (this.stopping) return false;
      const chunk = Math.min(this.settings.deferredBurst, Math.max(1, this.settings.deferredRate));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ((chunk - this.tokens) / this.settings.deferredRate) * 1000);
        this.cutSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.cutSleep = null;
      if (this.stopping) return false;
      this.refill();
    }
    const budget = Math.max(1, Math.floor(this.tokens));
    const { written, more } = await this.db.transaction().execute((trx) => writeDeferred(trx, this.settings, budget));
    this.tokens -= written;
    return more;
  }
}

/**
 * Takes deferred events of this deployment, each organization's oldest first and the
 * organizations in turn (one organization's storm does not hold up another's deliveries), skipping
 * rows another writer holds, and writes their deliveries: up to `budget` of them (at least one
 * event's). Answers how many were written and whether more may be left.
 */
export async function writeDeferred(trx: Transaction<IntegrationsDB>, settings: Pick<DeliverySettings, 'taskQueue' | 'breakerFailures'>, budget: number): Promise<{ written: number; more: boolean }> {
  const limit = Math.max(1, Math.min(TAKE_BATCH, budget));
  const { rows } = await sql<Deferred & { turn: number }>`
    select f.*, row_number() over (partition by f.organization_id order by f.created_at, f.event_id)::int as turn
    from (select distinct organization_id from integrations.deferred_fan_out where task_queue = ${settings.taskQueue}) o
    cross join lateral (
      select event_id, organization_id, event_type, webhook_ids, created_at from integrations.deferred_fan_out
      where task_queue = ${settings.taskQueue} and organization_id = o.organization_id
      order by created_at, event_id limit ${limit} for update skip locked
    ) f
    order by turn, f.created_at, f.event_id`.execute(trx);
  const taken: Deferred[] = [];
  let size = 0;
  for (const row of rows) {
    if (taken.length > 0 && size + row.webhook_ids.length > budget) break;
    taken.push(row);
    size += row.webhook_ids.length;
  }
  if (taken.length === 0) return { written: 0, more: false };
  // Read, not locked: a disable waits for the deferred rows held here before it cancels the
  // endpoint's deliveries (cancel.ts), so it cancels what this writes, or this reads it disabled.
  // Recovered (its last attempt a 2xx) with retries of this deployment still queued: it is
  // draining them, and these join them in order. Not so for an endpoint whose last attempt failed
  // but is not failing yet: its new deliveries get a first attempt, as before the deferral (and
  // writing them retrying set its loop to work during a storm, through Temporal: measured).
  const { rows: enabled } = await sql<{ id: string; failing: boolean }>`
    select id, ${breakerOpen(settings)} or (w.consecutive_failures = 0 and exists (
        select 1 from integrations.deliveries d where d.webhook_id = w.id and d.status = 'retrying' and d.task_queue = ${settings.taskQueue}
      )) as failing
    from integrations.webhooks w
    where id = any(${[...new Set(taken.flatMap((r) => r.webhook_ids))]}::text[]) and status = 'enabled' and deleted_at is null`.execute(trx);
  const live = new Map(enabled.map((r) => [r.id, r.failing]));
  // Failing now, or recovered and draining: into its retry queue, in its place by creation; else
  // (slow, failed once) a first attempt.
  const status = (webhookId: string): NewDelivery['status'] => {
    const failing = live.get(webhookId);
    return failing === undefined ? 'cancelled' : failing ? 'retrying' : 'pending';
  };
  const deliveries: NewDelivery[] = taken.flatMap((r) =>
    r.webhook_ids.map((webhookId) => ({ organizationId: r.organization_id, webhookId, eventId: r.event_id, eventType: r.event_type, status: status(webhookId), at: r.created_at })),
  );
  await writeDeliveries(trx, settings, deliveries);
  await sql`delete from integrations.deferred_fan_out where event_id = any(${taken.map((r) => r.event_id)}::text[])`.execute(trx);
  return { written: deliveries.length, more: taken.length < rows.length || rows.some((r) => r.turn === limit) };
}

/** Deferred events a disable or delete writes cancelled for its endpoint in its own transaction; the writer cancels the rest. */
const CANCEL_DEFERRED_BATCH = 5000;

/**
 * The deliveries still deferred for an endpoint being disabled or deleted (its row held FOR
 * UPDATE by the caller): written `cancelled` now, as the rest of its queue is, up to
 * CANCEL_DEFERRED_BATCH events (the writer writes any beyond cancelled, the endpoint not being
 * enabled). Called before the endpoint's deliveries are cancelled: it waits for a writer holding
 * those rows (which takes no lock on the endpoint, so no cycle), and the cancel after it sees what
 * that writer wrote.
 */
export async function cancelDeferredFor(trx: Transaction<IntegrationsDB>, webhookId: string): Promise<void> {
  const { rows } = await sql<Deferred & { task_queue: string }>`
    update integrations.deferred_fan_out f set webhook_ids = array_remove(f.webhook_ids, ${webhookId})
    from (select event_id from integrations.deferred_fan_out where ${webhookId} = any(webhook_ids) limit ${CANCEL_DEFERRED_BATCH} for update) o
    where f.event_id = o.event_id
    returning f.event_id, f.organization_id, f.event_type, f.task_queue, f.webhook_ids, f.created_at`.execute(trx);
  if (rows.length === 0) return;
  for (const taskQueue of new Set(rows.map((r) => r.task_queue))) {
    await writeDeliveries(trx, { taskQueue }, rows.filter((r) => r.task_queue === taskQueue).map((r) => ({
      organizationId: r.organization_id, webhookId, eventId: r.event_id, eventType: r.event_type, status: 'cancelled' as const, at: r.created_at,
    })));
  }
  await sql`delete from integrations.deferred_fan_out where event_id = any(${rows.filter((r) => r.webhook_ids.length === 0).map((r) => r.event_id)}::text[])`.execute(trx);
}
