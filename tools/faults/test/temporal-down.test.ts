import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call, eventually } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { newKey, proveNothingLostNothingTwice, report, sleep, statusCounts, steadyWrites } from '../src/writes.js';

const run = promisify(execFile);

/**
 * Temporal stopped for 30 s under steady API writes, with AI tasks (job descriptions, which run as
 * workflows) asked for meanwhile. Expectation: API writes keep succeeding, since a workflow start
 * is an outbox row committed with the write (202 for the task); once Temporal is back the relays
 * start the waiting workflows and every task completes, each by exactly one workflow; no
 * acknowledged write is lost and nothing is done twice.
 */
let topology: Topology;
before(async () => {
  topology = await startTestTopology('temporal-down', { instances: 1 });
});
after(() => topology?.stop());

describe('fault: Temporal stopped for 30 s', () => {
  it('API writes keep succeeding, and the work completes once Temporal is back', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const load = steadyWrites(topology.gateways, key, 1, 250);
    await sleep(1000);
    await topology.temporal.stop();
    const stoppedAt = Date.now();
    const tasks: string[] = [];
    const taskStatuses: number[] = [];
    while (Date.now() - stoppedAt < 30_000) {
      const res = await call('POST', '/api/v1/ai/job-description', { key, baseUrl: gateway, body: { title: `Fault engineer ${tasks.length}` } });
      taskStatuses.push(res.status);
      if (res.status === 202) tasks.push(res.body.data.id as string);
      await sleep(3000);
    }
    const whileDown = load.writes.filter((w) => w.startedAt >= stoppedAt);
    await topology.temporal.start();
    const restartedAt = Date.now();
    await sleep(2000);
    await load.stop();

    assert.ok(whileDown.length > 0 && whileDown.every((w) => w.status === 201), `writes while Temporal was down: ${JSON.stringify(statusCounts(whileDown))}`);
    assert.ok(tasks.length > 0 && taskStatuses.every((s) => s === 202), `AI tasks while Temporal was down: ${JSON.stringify(taskStatuses)}`);
    const finals: string[] = [];
    for (const id of tasks) {
      const task = await eventually(
        async () => (await call('GET', `/api/v1/tasks/${id}`, { key, baseUrl: gateway })).body.data as { status: string },
        (t) => t.status === 'succeeded' || t.status === 'failed',
        120_000,
        500,
      );
      finals.push(task.status);
      assert.equal(task.status, 'succeeded', `task ${id} after Temporal came back`);
      const { stdout } = await run(topology.temporal.cli, ['workflow', 'count', '--address', topology.temporal.address, '--query', `WorkflowId = 'jd:${id}'`, '--output', 'json']);
      assert.equal(Number((JSON.parse(stdout) as { count: string | number }).count), 1, `one workflow for task ${id}: ${stdout}`);
    }
    const completedAfterMs = Date.now() - restartedAt;
    const proof = await proveNothingLostNothingTwice(gateway, key, load.writes);
    report('temporal stopped 30 s', { writesWhileDown: statusCounts(whileDown), tasksWhileDown: tasks.length, tasksFinal: finals, allTasksDoneWithinMsOfRestart: completedAfterMs, ...proof });
  });
});
