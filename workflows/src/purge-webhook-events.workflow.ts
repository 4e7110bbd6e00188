import { proxyActivities } from '@temporalio/workflow';
import type { DeliveryActivities } from './activities/webhook-delivery.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeWebhookEvents: purge } = proxyActivities<DeliveryActivities>(PLATFORM_CALL);

/** Run hourly by the `purge-webhook-events` schedule: events and attempts past 30 days go. */
export async function purgeWebhookEvents(): Promise<{ events: number; attempts: number }> {
  return purge();
}
