import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { signalTree } from '../src/processes.js';
import { assertOnly201Or503, HANG_MS, newKey, proveNothingLostNothingTwice, report, sleep, statusCounts, steadyWrites, type Write } from '../src/writes.js';

/**
 * Postgres paused (SIGSTOP to the postmaster and every backend) for 10 s, then stopped for 10 s,
 * under steady API writes over two gateways (CLARIFICATIONS "Postgres paused").
 * Expectation: meanwhile every write is acknowledged (201) or answers 503 service_unavailable
 * with Retry-After after a bounded wait (DATABASE_CONNECT/STATEMENT_TIMEOUT_MS, 5 s); never a
 * 500, never a hang; writes succeed again once Postgres is back, with no process restarted; no
 * acknowledged write is lost, and a retry with the same Idempotency-Key creates nothing twice.
 */
let topology: Topology;
before(async () => {
  topology = await startTestTopology('postgres', { instances: 1 });
});
after(() => topology?.stop());

const slowest = (ws: Write[]) => Math.max(0, ...ws.map((w) => w.ms));

describe('fault: Postgres paused, then stopped, under steady writes', () => {
  it('503 with Retry-After meanwhile, recovery without a restart, nothing lost or done twice', async () => {
    const key = await newKey(topology);
    const pids = () => topology.processes.map((p) => p.child?.pid);
    const pidsBefore = pids();
    const load = steadyWrites(topology.gateways, key);
    await sleep(2000);

    const postmaster = topology.postgres.pid();
    const backends = signalTree(postmaster, 'SIGSTOP');
    const pausedAt = Date.now();
    await sleep(10_000);
    signalTree(postmaster, 'SIGCONT', backends);
    await sleep(3000);

    await topology.postgres.stop();
    const stoppedAt = Date.now();
    await sleep(10_000);
    await topology.postgres.start();
    const restartedAt = Date.now();
    const recovered = await eventually(async () => load.writes.filter((w) => w.startedAt > restartedAt && w.status === 201).length, (n) => n >= 5, 90_000);
    await load.stop();

    // Writes in flight at any moment of the window: on a loaded machine both writers may have
    // started just before it, and each such write still meets the paused or stopped Postgres.
    const during = (from: number, to: number) => load.writes.filter((w) => w.startedAt < to && w.startedAt + w.ms > from);
    const pausedWrites = during(pausedAt, pausedAt + 10_000);
    const stoppedWrites = during(stoppedAt, restartedAt);
    assert.ok(recovered >= 5, 'writes succeed again once Postgres is back');
    assert.ok(pausedWrites.some((w) => w.status === 503), `the pause was felt: ${JSON.stringify(statusCounts(pausedWrites))}`);
    assert.ok(stoppedWrites.some((w) => w.status === 503), `the stop was felt: ${JSON.stringify(statusCounts(stoppedWrites))}`);
    assertOnly201Or503(load.writes);
    assert.deepEqual(pids(), pidsBefore, 'no process restarted');
    const proof = await proveNothingLostNothingTwice(topology.gateways[0]!, key, load.writes);
    report('postgres paused 10 s then stopped 10 s', {
      writes: load.writes.length, statuses: statusCounts(load.writes),
      paused: statusCounts(pausedWrites), stopped: statusCounts(stoppedWrites),
      slowestAnswerMsPaused: slowest(pausedWrites), slowestAnswerMsStopped: slowest(stoppedWrites), hangBoundMs: HANG_MS, ...proof,
    });
  });
});
