import { sql } from '@hireloop/platform';

/** How this integrations instance delivers webhooks: settings read once at start (config.ts). */
export interface DeliverySettings {
  allowLoopback: boolean;
  /** Seconds to wait before each retry (PRODUCT.md §8's schedule unless configured otherwise). */
  retrySchedule: number[];
  /**
   * The deployment (TEMPORAL_TASK_QUEUE): its dispatchers and retry loops deliver the deliveries
   * it queued (their `task_queue`).
   */
  taskQueue: string;
  /** The task queue of the deliveries lane, where the endpoints' retry loops run (platform's lanes.ts). */
  loopQueue: string;
  /** Total deadline of one attempt: connect, send and the response's headers; the 1 KiB excerpt is read within what is left of it. */
  timeoutMs: number;
  /** How long an attempt holds its delivery (a lease); past it, the delivery is due again. */
  leaseMs: number;
  /** Attempts in flight at once, per endpoint (across every instance) and per dispatcher. */
  endpointConcurrency: number;
  totalConcurrency: number;
  /** Consecutive failed attempts that open an endpoint's circuit breaker (it is then `failing`). */
  breakerFailures: number;
  /** Most queued retries per endpoint; beyond, the oldest is failed. */
  backlogMax: number;
  /** Most enabled endpoints per organization. */
  endpointsPerOrg: number;
  /** Deliveries to failing endpoints written per second (deferred-fan-out.ts), and the burst allowed. */
  deferredRate: number;
  deferredBurst: number;
  /** Rounds of an endpoint's retry loop before it continues as new. */
  loopRoundsPerRun: number;
}

/** Whether an endpoint is `failing` (its breaker is open), as SQL over the webhooks row aliased `w`. */
export const breakerOpen = (settings: Pick<DeliverySettings, 'breakerFailures'>, w = 'w') => sql<boolean>`${sql.ref(`${w}.consecutive_failures`)} >= ${settings.breakerFailures}`;

/**
 * The attempts in flight to an endpoint (`webhookId`: a value, or a column as `sql.ref`), as SQL:
 * its deliveries under a live lease. Every way out of `pending` and `retrying` clears or outlives
 * the lease, so the lease alone says it, and the count reads the small index of leased deliveries
 * (deliveries_leased). With the status in the condition too, the planner could take the index of
 * every queued delivery instead, when a storm has outrun the table's statistics (2 000 read per
 * endpoint at each claim).
 */
export const attemptsInFlight = (webhookId: unknown) => sql<number>`(select count(*) from integrations.deliveries y where y.webhook_id = ${webhookId} and y.lease_until > now())`;

/**
 * For each place in the retry schedule (failed attempts so far), the seconds from the next
 * attempt's due time to the last one's, were each made on time: a delivery held by a failing
 * endpoint past that (its horizon, about 28 h after its first attempt) has outlived its schedule.
 * One entry per place, the last (schedule exhausted) 0.
 */
export function scheduleHorizons(schedule: number[]): number[] {
  return schedule.map((_, k) => schedule.slice(k).reduce((a, b) => a + b, 0)).concat(0);
}
