import { condition, defineSignal, patched, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import { ENDPOINT_FREE_SIGNAL } from './signals.js';
import type { DeliveryActivities } from './activities/webhook-delivery.js';

// An attempt's outcome is decided by the workflow's schedule; the activity is retried only for
// platform trouble (the integrations service briefly unreachable, or gone mid-attempt), not for
// the receiver's answer. integrations completes it asynchronously once the attempt is recorded,
// so its deadline covers one HTTP attempt (15 s), the record and the lease (30 s) of an attempt
// whose integrations instance died: asked again after that, the attempt is made again.
const { attemptDelivery } = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Longest wait a receiver's Retry-After may ask for. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/**
 * The wait before asking again when integrations has its cap of retries in flight (`full`), and,
 * in histories from before the wake-up signal, when the endpoint had its cap (`busy`): 1 s,
 * doubling up to 30 s, ±25 % (the workflow's seeded Math.random: deterministic on replay), so the
 * deliveries queued behind a slow endpoint do not all ask at once.
 */
function busyWaitMs(times: number): number {
  return Math.min(1000 * 2 ** times, 30_000) * (0.75 + Math.random() / 2);
}

/**
 * Queued for an endpoint at its cap (`busy`), the workflow waits for `endpointFree`, which
 * integrations sends when an attempt to the endpoint ends (endpoint-waiters.ts there). This timer
 * only covers a signal that never comes (integrations' own sweep re-sends lost ones every 5 s).
 */
const ENDPOINT_FREE_FALLBACK = '5 minutes';
/** Marks histories whose `busy` waits are for the signal (running histories from before replay the timer). */
const WAKE_ON_SIGNAL = 'webhook-endpoint-free-signal';
const endpointFree = defineSignal(ENDPOINT_FREE_SIGNAL);

/** Ids and numbers only: the activity reads the payload and the secret from integrations. */
export interface DeliverWebhookArgs {
  organizationId: string;
  deliveryId: string;
  generation: number;
  /** Attempts this generation already made (1 after a failed first attempt, 0 after a lost lease). */
  attempted: number;
  /** The receiver's Retry-After on the attempt already made, in seconds. */
  retryAfterSeconds: number | null;
  retrySchedule: number[];
}

/**
 * `deliver:<deliveryId>` (`:<generation>` after a manual retry or a replay): the retry schedule
 * of one delivery, from before the endpoints' retry loops (retry-webhook-endpoint.workflow.ts).
 * None is started any more; those running at the upgrade finish here: their next ask is answered
 * `stopped` by integrations, which hands the delivery (already in its endpoint's retry queue) to
 * the endpoint's loop, and the workflow ends. The code is unchanged, so their histories replay.
 *
 * What it did: waits were durable timers; it ended when the delivery was delivered, its endpoint
 * gone or disabled, the delivery superseded, or the schedule exhausted. An attempt refused
 * because the endpoint was at its cap (`busy`) waited for the endpoint's `endpointFree` signal.
 */
export async function deliverWebhook(args: DeliverWebhookArgs): Promise<string> {
  // Set by a signal that may come while the activity that answered `busy` is still reporting back.
  let woken = false;
  setHandler(endpointFree, () => {
    woken = true;
  });
  let asked = args.retryAfterSeconds;
  for (let attempted = args.attempted; ; attempted++) {
    if (attempted > 0) {
      const wait = args.retrySchedule[attempted - 1];
      if (wait === undefined) return 'exhausted';
      await sleep(Math.max(wait, Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS)) * 1000);
    }
    const next = args.retrySchedule[attempted];
    const input = { organizationId: args.organizationId, deliveryId: args.deliveryId, generation: args.generation, waitSeconds: next ?? null };
    woken = false;
    let result = await attemptDelivery(input);
    for (let busy = 0; result.outcome === 'busy' || result.outcome === 'full'; busy++) {
      if (result.outcome === 'busy' && patched(WAKE_ON_SIGNAL)) await condition(() => woken, ENDPOINT_FREE_FALLBACK);
      else await sleep(busyWaitMs(busy));
      woken = false;
      result = await attemptDelivery(input);
    }
    if (result.outcome !== 'failed') return result.outcome;
    asked = result.retryAfterSeconds ?? null;
  }
}
