import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import type { Logger } from '@hireloop/platform';

/** The Temporal schedule that runs the 30-day retention purge of events and attempts, hourly. */
export const PURGE_SCHEDULE_ID = 'purge-webhook-events';

/**
 * Creates the purge schedule once per Temporal namespace (every instance tries; the first wins).
 * A schedule rather than a timer in each process: it runs once however many instances there
 * are, and survives restarts. Temporal down at start: retried in the background.
 */
export async function ensurePurgeSchedule(temporal: Client, taskQueue: string, logger: Logger): Promise<void> {
  for (let wait = 1000; ; wait = Math.min(wait * 2, 60_000)) {
    try {
      await temporal.schedule.create({
        scheduleId: PURGE_SCHEDULE_ID,
        spec: { intervals: [{ every: '1h' }] },
        action: { type: 'startWorkflow', workflowType: 'purgeWebhookEvents', taskQueue, args: [] },
        policies: { overlap: 'SKIP' },
      });
      return;
    } catch (err) {
      if (err instanceof ScheduleAlreadyRunning) return;
      logger.warn({ err }, 'could not create the event purge schedule; retrying');
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
