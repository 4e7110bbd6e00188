import { ScheduleAlreadyRunning, type Client } from '@temporalio/client';
import { z } from 'zod';
import type { Logger } from './logger.js';

/** `PURGE_INTERVAL_MINUTES`: how often each retention schedule runs (a setting of the process that creates it). */
export const PurgeIntervalMinutes = z.coerce.number().int().min(1).max(7 * 24 * 60).default(60);

export interface PurgeSchedule {
  /** The Temporal schedule id, one per namespace. */
  scheduleId: string;
  /** The workflow it starts (registered by the worker), with no arguments. */
  workflowType: string;
  taskQueue: string;
  /**
   * The queue this deployment's schedule started its workflow on before lanes existed (its bare
   * TEMPORAL_TASK_QUEUE): an existing schedule still on it is moved to `taskQueue`.
   */
  formerTaskQueue?: string;
  /** How often, in minutes. */
  everyMinutes: number;
}

/**
 * Creates a periodic schedule once per Temporal namespace (every instance tries; the first wins).
 * A schedule rather than a timer in each process: it runs once however many instances there
 * are, survives restarts, and overlapping runs are skipped. Temporal down at start: retried in
 * the background.
 */
export async function ensureSchedule(temporal: Client, schedule: PurgeSchedule, logger: Logger): Promise<void> {
  const { scheduleId, workflowType, taskQueue } = schedule;
  const every = schedule.everyMinutes * 60_000;
  const action = { type: 'startWorkflow' as const, workflowType, taskQueue, args: [] };
  for (let wait = 1000; ; wait = Math.min(wait * 2, 60_000)) {
    try {
      try {
        await temporal.schedule.create({ scheduleId, spec: { intervals: [{ every }] }, action, policies: { overlap: 'SKIP' } });
        return;
      } catch (err) {
        if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      }
      // It exists: a changed period in the settings is applied to it. Its action stays the first
      // creator's: another process on another task queue (a test's extra service, a canary) must
      // not take the schedule over and leave it pointing at a queue nobody polls once it is gone.
      // Only the same deployment's queue from before lanes is moved to the lane.
      const handle = temporal.schedule.getHandle(scheduleId);
      const current = await handle.describe();
      const intervals = current.spec.intervals ?? [];
      const samePeriod = intervals.length === 1 && intervals[0]!.every === every && !current.spec.calendars?.length;
      const moving = current.action.type === 'startWorkflow' && schedule.formerTaskQueue !== undefined && current.action.taskQueue === schedule.formerTaskQueue;
      if (samePeriod && !moving) return;
      await handle.update((previous) => ({
        ...previous,
        spec: { intervals: [{ every }] },
        ...(moving && previous.action.type === 'startWorkflow' ? { action: { ...previous.action, taskQueue } } : {}),
      }));
      logger.info({ scheduleId, everyMinutes: schedule.everyMinutes, taskQueue }, 'schedule updated to the configured period and queue');
      return;
    } catch (err) {
      logger.warn({ err, scheduleId }, 'could not create a schedule; retrying');
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
