import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { createLogger } from './logger.js';
import { ensureSchedule } from './schedules.js';

const logger = createLogger('schedules-test', 'silent');

describe('ensureSchedule (retention schedules)', () => {
  it('creates the schedule once, and a changed period updates the existing one', async () => {
    const connection = await Connection.connect({ address: process.env['TEMPORAL_ADDRESS']! });
    const temporal = new Client({ connection });
    const scheduleId = `test-schedule-${process.pid}`;
    const base = { scheduleId, workflowType: 'purgeIdentity', taskQueue: `schedules-test-${process.pid}` };
    const period = async () => (await temporal.schedule.getHandle(scheduleId).describe()).spec.intervals?.map((i) => i.every);
    try {
      await ensureSchedule(temporal, { ...base, everyMinutes: 60 }, logger);
      assert.deepEqual(await period(), [60 * 60_000]);
      // A second instance with the same setting leaves it as it is.
      await ensureSchedule(temporal, { ...base, everyMinutes: 60 }, logger);
      assert.deepEqual(await period(), [60 * 60_000]);
      // A restart with PURGE_INTERVAL_MINUTES=15 applies the new period to the existing schedule.
      await ensureSchedule(temporal, { ...base, everyMinutes: 15 }, logger);
      assert.deepEqual(await period(), [15 * 60_000]);
      const described = await temporal.schedule.getHandle(scheduleId).describe();
      assert.equal(described.policies.overlap, 'SKIP');
      assert.equal(described.action.type === 'startWorkflow' && described.action.taskQueue, base.taskQueue);
      // A process on another task queue (a test's extra service) does not take the schedule over.
      await ensureSchedule(temporal, { ...base, taskQueue: `elsewhere-${process.pid}`, everyMinutes: 15 }, logger);
      const after = await temporal.schedule.getHandle(scheduleId).describe();
      assert.equal(after.action.type === 'startWorkflow' && after.action.taskQueue, base.taskQueue);
      // The same deployment, now with lanes: its schedule from before moves to the lane's queue.
      const lane = `${base.taskQueue}-erasure`;
      await ensureSchedule(temporal, { ...base, taskQueue: lane, formerTaskQueue: base.taskQueue, everyMinutes: 15 }, logger);
      const moved = await temporal.schedule.getHandle(scheduleId).describe();
      assert.equal(moved.action.type === 'startWorkflow' && moved.action.taskQueue, lane);
      assert.deepEqual(moved.spec.intervals?.map((i) => i.every), [15 * 60_000]);
    } finally {
      await temporal.schedule.getHandle(scheduleId).delete().catch(() => undefined);
      await connection.close();
    }
  });
});
