import { proxyActivities } from '@temporalio/workflow';
import type { GatewayRetentionActivities } from './activities/gateway-retention.js';
import { PLATFORM_CALL } from './activity-options.js';

const { purgeIdempotencyKeys } = proxyActivities<GatewayRetentionActivities>(PLATFORM_CALL);

/** Run hourly by the `purge-gateway` schedule (created by the worker when it has the gateway's database role). */
export async function purgeGateway(): Promise<{ idempotencyKeys: number; erasedSubjects: number }> {
  return purgeIdempotencyKeys();
}
