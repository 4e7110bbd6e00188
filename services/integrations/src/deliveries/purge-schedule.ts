import type { Client } from '@temporalio/client';
import { ensureSchedule, type Logger } from '@hireloop/platform';

/** The Temporal schedule that runs the integrations retention purge (events, attempts, outboxes), every PURGE_INTERVAL_MINUTES. */
export const PURGE_SCHEDULE_ID = 'purge-webhook-events';

export const ensurePurgeSchedule = (temporal: Client, taskQueue: string, everyMinutes: number, logger: Logger) =>
  ensureSchedule(temporal, { scheduleId: PURGE_SCHEDULE_ID, workflowType: 'purgeWebhookEvents', taskQueue, everyMinutes }, logger);
