import type { Client } from '@temporalio/client';
import { ensureSchedule, type Lane, type Logger } from '@hireloop/platform';

/** The Temporal schedule that runs the integrations retention purge (events, attempts, outboxes), every PURGE_INTERVAL_MINUTES. */
export const PURGE_SCHEDULE_ID = 'purge-webhook-events';

export const ensurePurgeSchedule = (temporal: Client, lanes: Record<Lane, string>, everyMinutes: number, logger: Logger) =>
  ensureSchedule(temporal, { scheduleId: PURGE_SCHEDULE_ID, workflowType: 'purgeWebhookEvents', taskQueue: lanes.erasure, formerTaskQueue: lanes.general, everyMinutes }, logger);
