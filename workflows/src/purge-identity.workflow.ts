import { proxyActivities } from '@temporalio/workflow';
import type { RetentionActivities } from './activities/retention.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeIdentitySessions } = proxyActivities<RetentionActivities>(PLATFORM_CALL);

/** Run hourly by the `purge-identity` schedule (created by the worker: identity has no Temporal client). */
export async function purgeIdentity(): Promise<{ sessions: number }> {
  return purgeIdentitySessions();
}
