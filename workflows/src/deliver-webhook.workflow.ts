import { ActivityFailure, ApplicationFailure, proxyActivities, sleep } from '@temporalio/workflow';
import type { DeliveryActivities } from './activities/webhook-delivery.js';

// An attempt's outcome is decided by the workflow's schedule; the activity is retried only for
// platform trouble (the integrations service briefly unreachable), not for the receiver's answer.
const { attemptDelivery } = proxyActivities<DeliveryActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/** Longest wait a receiver's Retry-After may ask for. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

export interface DeliverWebhookArgs {
  organizationId: string;
  webhookId: string;
  event: { id: string; type: string; createdAt: string; data: unknown };
  /** Seconds to wait before each retry: PRODUCT.md §8's 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  retrySchedule: number[];
}

/**
 * `deliver:<eventId>:<webhookId>`: at-least-once delivery of one event to one webhook. Waits
 * are durable timers, so the schedule survives restarts of every process.
 */
export async function deliverWebhook(args: DeliverWebhookArgs): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      await attemptDelivery({ organizationId: args.organizationId, webhookId: args.webhookId, event: args.event, attempt });
      return 'delivered';
    } catch (err) {
      const failure = err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : null;
      if (!failure || failure.type === 'endpoint_gone' || failure.type === 'endpoint_unavailable') return failure?.type ?? 'failed';
      const wait = args.retrySchedule[attempt - 1];
      if (wait === undefined) return 'exhausted';
      const asked = (failure.details?.[0] as { retryAfterSeconds?: number | null } | undefined)?.retryAfterSeconds ?? 0;
      await sleep(Math.max(wait, Math.min(asked ?? 0, MAX_RETRY_AFTER_SECONDS)) * 1000);
    }
  }
}
