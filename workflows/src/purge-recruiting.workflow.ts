import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from './activities/retention.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeRecruitingOutboxes } = proxyActivities<RetentionActivities>(PLATFORM_CALL);

/** Run hourly by the `purge-recruiting` schedule (created by the recruiting service at start). */
export async function purgeRecruiting(): Promise<{ outbox: number; workflowOutbox: number }> {
  return purgeRecruitingOutboxes();
}
