import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from './activities/retention.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeRecruitingOutboxes } = proxyActivities<RetentionActivities>(PLATFORM_CALL);

/**
 * Run hourly by the `purge-recruiting` schedule (created by the recruiting service at start):
 * relayed outbox rows, and answers and evaluation text past RETENTION_ANSWERS_DAYS.
 */
export async function purgeRecruiting(): Promise<{ outbox: number; workflowOutbox: number; answers: number }> {
  return purgeRecruitingOutboxes();
}
