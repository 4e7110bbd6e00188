import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { eventually } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { HANG_MS, newKey, proveNothingLostNothingTwice, report, sleep, statusCounts, steadyWrites } from '../src/writes.js';

/**
 * The integrations service hung (SIGSTOP) while recruiting's outbox publisher sends it events.
 * Expectation: candidate writes keep succeeding (their events wait in recruiting's outbox); the
 * publisher gives up each call at its deadline (RELAY_CALL_TIMEOUT_MS, 3 s here) and holds no row
 * lock on the outbox meanwhile (claims are leases); once integrations resumes, every event is
 * published, each exactly once. A client's request for an integrations route is answered 503
 * `service_unavailable` with `Retry-After` at the gateway's deadline (SERVICE_CALL_TIMEOUT_MS),
 * not left hanging, while the other services' routes answer as usual.
 */
const CALL_TIMEOUT_MS = 3000;
let topology: Topology & { logFile: string };
let db: pg.Client;
before(async () => {
  topology = await startTestTopology('integrations-hung', { instances: 1, env: { RELAY_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS), SERVICE_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) } });
  db = new pg.Client({ connectionString: topology.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await topology?.stop();
});

describe('fault: integrations hung while the outbox publisher calls it', () => {
  it('the publisher times out, holds no lock, and catches up after', async () => {
    const key = await newKey(topology);
    const integrations = topology.process('integrations-1');
    integrations.signal('SIGSTOP');
    let resumed = false;
    try {
      const load = steadyWrites(topology.gateways, key, 1, 200);
      // Meanwhile a client reads an integrations route: the gateway answers at its deadline.
      const hungRoute = await fetch(`${topology.gateways[0]}/api/v1/webhooks`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(HANG_MS) });
      const hungBody = (await hungRoute.json()) as { error?: { code?: string } };
      assert.equal(hungRoute.status, 503, JSON.stringify(hungBody));
      assert.equal(hungBody.error?.code, 'service_unavailable');
      assert.ok(hungRoute.headers.get('retry-after'), 'with Retry-After');
      await sleep(2 * CALL_TIMEOUT_MS);
      await load.stop();
      assert.ok(load.writes.length > 0 && load.writes.every((w) => w.status === 201), `writes while integrations hung: ${JSON.stringify(statusCounts(load.writes))}`);
      const orgId = (await db.query(`select organization_id from recruiting.candidates where email = $1`, [load.writes[0]!.email])).rows[0]?.organization_id as string;
      const waiting = await db.query(`select count(*)::int as n from recruiting.outbox where organization_id = $1 and published_at is null`, [orgId]);
      assert.ok(waiting.rows[0].n >= load.writes.length, `the events wait in the outbox (${waiting.rows[0].n})`);

      const timedOut = readFileSync(topology.logFile, 'utf8').split('\n').filter((l) => l.startsWith('recruiting') && /timed out after/.test(l));
      assert.ok(timedOut.length > 0, 'the publisher gave up its call at the deadline (logged)');

      // No row lock held across the hung call: every waiting row can be locked within a second,
      // where a lock held across the call would last its whole deadline. (Not NOWAIT: the
      // publisher's claim, one short UPDATE every few seconds, may hold the rows at that instant.)
      await db.query('begin');
      try {
        await db.query(`set local lock_timeout = '1s'`);
        const locked = await db.query(`select id from recruiting.outbox where organization_id = $1 and published_at is null for update`, [orgId]);
        assert.equal(locked.rows.length, waiting.rows[0].n);
      } finally {
        await db.query('rollback');
      }

      integrations.signal('SIGCONT');
      resumed = true;
      const published = await eventually(
        async () => (await db.query(`select count(*)::int as n from recruiting.outbox where organization_id = $1 and published_at is null`, [orgId])).rows[0].n as number,
        (n) => n === 0,
        120_000,
        500,
      );
      assert.equal(published, 0, 'every event published once integrations answers');
      const events = await db.query(`select count(*)::int as n, count(distinct id)::int as d from integrations.events where organization_id = $1 and type = 'candidate.created'`, [orgId]);
      assert.equal(events.rows[0].n, load.writes.length, 'one candidate.created per write');
      assert.equal(events.rows[0].d, events.rows[0].n);
      const proof = await proveNothingLostNothingTwice(topology.gateways[0]!, key, load.writes);
      report('integrations hung (SIGSTOP)', { writesWhileHung: statusCounts(load.writes), waitingEvents: waiting.rows[0].n, publisherTimeoutsLogged: timedOut.length, lockedAtOnce: true, eventsAfter: events.rows[0].n, ...proof });
    } finally {
      if (!resumed) integrations.signal('SIGCONT');
    }
  });
});
