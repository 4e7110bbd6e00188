import { proxyActivities, sleep } from '@temporalio/workflow';
import type { RetryWorkflowArgs } from '@hireloop/integrations/deliveries/delivery-start';
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
 * The wait before asking again when the endpoint has its cap of attempts in flight: 1 s, doubling
 * up to 30 s, ±25 % (the workflow's seeded Math.random: deterministic on replay), so the deliveries
 * queued behind a slow endpoint do not all ask at once.
 */
function busyWaitMs(times: number): number {
  return Math.min(1000 * 2 ** times, 30_000) * (0.75 + Math.random() / 2);
}

/** Ids and numbers only: the activity reads the payload and the secret from integrations. */
export type DeliverWebhookArgs = RetryWorkflowArgs;

/**
 * `deliver:<deliveryId>` (`:<generation>` after a manual retry or a replay): the retry schedule
 * of a delivery whose first attempt failed, or whose dispatcher died. Waits are durable timers,
 * so the schedule survives restarts of every process. Ends when the delivery is delivered, its
 * endpoint is gone or disabled (410, 5 days of failures, deleted), the delivery was superseded,
 * or the schedule is exhausted. An attempt refused because the endpoint is at its cap (`busy`)
 * was not made nor logged: it is asked again after a short wait, and the schedule goes on from
 * the attempt actually made.
 */
export async function deliverWebhook(args: DeliverWebhookArgs): Promise<string> {
  let asked = args.retryAfterSeconds;
  for (let attempted = args.attempted; ; attempted++) {
    if (attempted > 0) {
      const wait = args.retrySchedule[attempted - 1];
      if (wait === undefined) return 'exhausted';
      await sleep(Math.max(wait, Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS)) * 1000);
    }
    const next = args.retrySchedule[attempted];
    const input = { organizationId: args.organizationId, deliveryId: args.deliveryId, generation: args.generation, waitSeconds: next ?? null };
    let result = await attemptDelivery(input);
    for (let busy = 0; result.outcome === 'busy'; busy++) {
      await sleep(busyWaitMs(busy));
      result = await attemptDelivery(input);
    }
    if (result.outcome !== 'failed') return result.outcome;
    asked = result.retryAfterSeconds ?? null;
  }
}
