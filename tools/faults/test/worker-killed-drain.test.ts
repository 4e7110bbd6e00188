import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, startTestServer } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { newKey, proveNothingLostNothingTwice, report, sleep, statusCounts, steadyWrites } from '../src/writes.js';

/**
 * The delivery worker (the worker of the deliveries lane alone: WORKER_LANES=deliveries), then
 * integrations, SIGKILLed while an endpoint that failed drains its retry queue (issue 19).
 *
 * An endpoint answers 500 until its circuit breaker opens (3 failures) and 80 deliveries are
 * queued for it; then it answers 200 after 1.5 s each, so the drain (at a cap of 4 in flight)
 * takes about 30 s. Mid-drain the delivery worker is killed and started again (a round runs in
 * integrations, which completes it: the drain goes on); later integrations, with attempts in
 * flight, is killed and started again (a lease of 5 s, past the 4 s HTTP deadline, so its held
 * deliveries come back soon; the round's heartbeats stop, so the loop asks again 20 s later).
 *
 * Expectation: no delivery is lost (every one ends `delivered`, every event reached the
 * endpoint); each scheduled slot has at most one recorded attempt (consecutive recorded attempts
 * of a delivery are at least its schedule's wait apart, and each delivery has one recorded
 * success); an HTTP attempt cut off by the kill may reach the receiver again (at least once). The
 * API writes made meanwhile are neither lost nor made twice.
 */
const SCHEDULE_SECONDS = [...Array(20).fill(1), 600];
const DELIVERIES = 80;
let topology: Topology;
let db: pg.Client;

before(async () => {
  topology = await startTestTopology('worker-killed-drain', {
    instances: 1,
    env: {
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      WEBHOOK_BREAKER_FAILURES: '3',
      WEBHOOK_RETRY_SCHEDULE: SCHEDULE_SECONDS.map((s) => `${s}s`).join(','),
      WEBHOOK_TIMEOUT_MS: '4000',
      WEBHOOK_LEASE_MS: '5000',
      WEBHOOK_LOOP_ROUNDS_PER_RUN: '5',
      WEBHOOK_ENDPOINT_CONCURRENCY: '4',
    },
    processEnv: { 'worker-1': { WORKER_LANES: 'deliveries' } },
  });
  db = new pg.Client({ connectionString: topology.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await topology?.stop();
});

describe('fault: the delivery worker and integrations SIGKILLed mid-drain', () => {
  it('no delivery is lost; each scheduled slot has at most one recorded attempt', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const state = { failing: true, arrivals: [] as { eventId: string; status: number }[] };
    const receiver = await startTestServer(async (_req, body) => {
      const { id } = JSON.parse(body) as { id: string };
      if (state.failing) {
        state.arrivals.push({ eventId: id, status: 500 });
        return { status: 500, body: '{}' };
      }
      await sleep(1500);
      state.arrivals.push({ eventId: id, status: 200 });
      return { status: 200, body: '{}' };
    });
    try {
      const hook = await call('POST', '/api/v1/webhooks', { key, baseUrl: gateway, body: { url: `${receiver.url}/hooks`, events: ['position.created'] } });
      assert.equal(hook.status, 201, hook.text);
      const webhookId = hook.body.data.id as string;
      for (let i = 0; i < DELIVERIES; i++) {
        const res = await call('POST', '/api/v1/positions', { key, baseUrl: gateway, body: { title: `Drain ${i}` } });
        assert.equal(res.status, 201, res.text);
      }
      const deliveries = async () =>
        (await db.query(`select status, next_attempt_at <= now() as due from integrations.deliveries where webhook_id = $1`, [webhookId])).rows as { status: string; due: boolean }[];
      await eventually(deliveries, (rows) => rows.length === DELIVERIES + 1 && rows.every((d) => d.status === 'retrying' && d.due), 120_000, 500);

      const load = steadyWrites(topology.gateways, key, 1, 200);
      state.failing = false;
      const delivered = () => new Set(state.arrivals.filter((a) => a.status === 200).map((a) => a.eventId)).size;
      await eventually(async () => delivered(), (n) => n >= 8, 60_000, 100);
      const worker = topology.process('worker-1');
      worker.signal('SIGKILL');
      await worker.child?.exited;
      const afterWorkerKill = delivered();
      await sleep(2000);
      await worker.start();
      await eventually(async () => delivered(), (n) => n >= 32, 120_000, 100);
      const integrations = topology.process('integrations-1');
      integrations.signal('SIGKILL');
      await integrations.child?.exited;
      const afterIntegrationsKill = delivered();
      await sleep(2000);
      await integrations.start();

      assert.ok(afterIntegrationsKill < DELIVERIES, `integrations was killed mid-drain (${afterIntegrationsKill} delivered)`);
      const rows = await eventually(deliveries, (r) => r.every((d) => d.status === 'delivered'), 180_000, 1000);
      await load.stop();
      assert.deepEqual([...new Set(rows.map((d) => d.status))], ['delivered'], 'no delivery lost');
      const events = await db.query(`select event_id from integrations.deliveries where webhook_id = $1`, [webhookId]);
      const got = new Set(state.arrivals.filter((a) => a.status === 200).map((a) => a.eventId));
      assert.deepEqual(events.rows.map((r) => r.event_id as string).filter((id) => !got.has(id)), [], 'every event reached the endpoint');

      const early = await db.query(
        `with a as (
           select delivery_id, created_at, row_number() over (partition by delivery_id order by created_at) as k,
             lag(created_at) over (partition by delivery_id order by created_at) as previous
           from integrations.delivery_attempts where webhook_id = $1 and coalesce(error, '') not like 'not attempted%'
         )
         select delivery_id, k from a where previous is not null and created_at - previous < make_interval(secs => ($2::float8[])[k - 1])`,
        [webhookId, SCHEDULE_SECONDS],
      );
      assert.deepEqual(early.rows, [], 'a slot with two recorded attempts');
      const successes = await db.query(
        `select delivery_id, count(*)::int as n from integrations.delivery_attempts where webhook_id = $1 and status_code between 200 and 299 group by delivery_id having count(*) <> 1`,
        [webhookId],
      );
      assert.deepEqual(successes.rows, [], 'one recorded success per delivery');

      const received200 = state.arrivals.filter((a) => a.status === 200).length;
      const proof = await proveNothingLostNothingTwice(gateway, key, load.writes);
      report('delivery worker and integrations SIGKILLed mid-drain', {
        deliveries: rows.length,
        deliveredBeforeWorkerKill: afterWorkerKill,
        deliveredBeforeIntegrationsKill: afterIntegrationsKill,
        received200,
        receivedTwice: received200 - got.size,
        writes: statusCounts(load.writes),
        ...proof,
      });
    } finally {
      await receiver.close();
    }
  });
});
