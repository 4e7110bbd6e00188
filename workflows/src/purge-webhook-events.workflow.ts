import { proxyActivities } from '@temporalio/workflow';
import type { DeliveryActivities } from './activities/webhook-delivery.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeWebhookEvents: purge } = proxyActivities<DeliveryActivities>(PLATFORM_CALL);

/**
 * Run hourly by the `purge-webhook-events` schedule: events past 30 days, attempts past
 * DELIVERY_ATTEMPT_RETENTION_DAYS, inbound ATS events past ATS_EVENTS_RETENTION_DAYS, relayed
 * outbox rows past OUTBOX_RETENTION_HOURS, recorded Idempotency-Keys past
 * IDEMPOTENCY_RETENTION_HOURS.
 */
export async function purgeWebhookEvents(): Promise<{ events: number; attempts: number; outbox: number; workflowOutbox: number }> {
  return purge();
}
