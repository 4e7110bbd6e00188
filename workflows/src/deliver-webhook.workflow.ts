import { proxyActivities, sleep } from '@temporalio/workflow';
import type { RetryWorkflowArgs } from '@hireloop/integrations/deliveries/delivery-start';
import type { DeliveryActivities } from './activities/webhook-delivery.js';

// An attempt's outcome is decided by the workflow's schedule; the activity is retried only for
// platform trouble (the integrations service briefly unreachable), not for the receiver's answer.
// Its deadline covers one HTTP attempt (15 s) and the call around it.
const { attemptDelivery } = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Longest wait a receiver's Retry-After may ask for. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** Ids and numbers only: the activity reads the payload and the secret from integrations. */
export type DeliverWebhookArgs = RetryWorkflowArgs;

/**
 * `deliver:<deliveryId>` (`:<generation>` after a manual retry or a replay): the retry schedule
 * of a delivery whose first attempt failed, or whose dispatcher died. Waits are durable timers,
 * so the schedule survives restarts of every process. Ends when the delivery is delivered, its
 * endpoint is gone or disabled (410, 5 days of failures, deleted), the delivery was superseded,
 * or the schedule is exhausted.
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
    const result = await attemptDelivery({ organizationId: args.organizationId, deliveryId: args.deliveryId, generation: args.generation, waitSeconds: next ?? null });
    if (result.outcome !== 'failed') return result.outcome;
    asked = result.retryAfterSeconds ?? null;
  }
}
