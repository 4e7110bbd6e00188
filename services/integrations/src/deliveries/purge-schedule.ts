import type { Client } from '@temporalio/client';
import { ensureSchedule, type Logger } from '@hireloop/platform';

/** The Temporal schedule that runs the integrations retention purge (events, attempts, outboxes), hourly. */
export const PURGE_SCHEDULE_ID = 'purge-webhook-events';

export const ensurePurgeSchedule = (temporal: Client, taskQueue: string, logger: Logger) =>
  ensureSchedule(temporal, { scheduleId: PURGE_SCHEDULE_ID, workflowType: 'purgeWebhookEvents', taskQueue, every: '1h' }, logger);
