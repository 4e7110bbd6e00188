import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import type { Logger } from './logger.js';

export interface PurgeSchedule {
  /** The Temporal schedule id, one per namespace. */
  scheduleId: string;
  /** The workflow it starts (registered by the worker), with no arguments. */
  workflowType: string;
  taskQueue: string;
  /** How often, e.g. '1h'. */
  every: Duration;
}

/**
 * Creates a periodic schedule once per Temporal namespace (every instance tries; the first wins).
 * A schedule rather than a timer in each process: it runs once however many instances there
 * are, survives restarts, and overlapping runs are skipped. Temporal down at start: retried in
 * the background.
 */
export async function ensureSchedule(temporal: Client, schedule: PurgeSchedule, logger: Logger): Promise<void> {
  const { scheduleId, workflowType, taskQueue, every } = schedule;
  for (let wait = 1000; ; wait = Math.min(wait * 2, 60_000)) {
    try {
      await temporal.schedule.create({
        scheduleId,
        spec: { intervals: [{ every }] },
        action: { type: 'startWorkflow', workflowType, taskQueue, args: [] },
        policies: { overlap: 'SKIP' },
      });
      return;
    } catch (err) {
      if (err instanceof ScheduleAlreadyRunning) return;
      logger.warn({ err, scheduleId }, 'could not create a schedule; retrying');
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
