import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { eventually, newOrganizationWithKey, startExtraProcess, startTestServer, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';

// Issue 9, isolation of the retry path: a retry to a hanging endpoint must not hold one of the
// worker's activity slots for the whole HTTP deadline, or one organization's hanging endpoints
// hold up every other organization's retries. Order and counts are asserted (the attempt log and
// what the receivers saw), not timings (CLARIFICATIONS).

/** The worker's activity slots in this test: fewer than organization A's hanging retries. */
const SLOTS = 2;
/** Attempts in flight at once per endpoint, in this test. */
const ENDPOINT_CAP = 2;

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

/**
 * A receiver that fails the first attempt of every event (500), then, on a retry, either hangs
 * until it closes (`hang`) or answers 200. Counts the requests it holds open, and the most at once.
 */
async function receiver(then: 'hang' | 'ok') {
  const seen = new Set<string>();
  const state = { requests: 0, retries: 0, open: 0, mostOpen: 0 };
  const release: Array<() => void> = [];
  let closing = false;
  const server = await startTestServer(async (req, body) => {
    state.requests++;
    const id = (JSON.parse(body) as { id: string }).id;
    if (!seen.has(id)) {
      seen.add(id);
      return { status: 500, body: '{}' };
    }
    state.retries++;
    if (then === 'ok' || closing) return { status: 200, body: '{}' };
    state.open++;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    req.socket.once('close', () => state.open--); // the sender gave up (its deadline) or the receiver closed
    await new Promise<void>((resolve) => release.push(resolve));
    return { status: 503, body: '{}' };
  });
  return {
    url: `${server.url}/hooks`,
    state,
    close: async () => {
      closing = true;
      for (const r of release.splice(0)) r();
      await server.close();
    },
  };
}

describe('webhook retries and the worker\'s activity slots', () => {
  it('org A\'s retries hanging on its endpoints leave the worker free: org B\'s retry is made when due; each endpoint keeps its cap', async () => {
    // A 30 s deadline, so A's retries are still hanging when B's comes due; the worker has SLOTS activity slots.
    const env = { TEMPORAL_TASK_QUEUE: `retry-slots-${process.pid}`, WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_LEASE_MS: '35000', WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CAP) };
    const integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, INTEGRATIONS_URL: integrations.url, WORKER_MAX_CONCURRENT_ACTIVITIES: String(SLOTS) }).catch(async (err: unknown) => {
      await integrations.child.stop();
      throw err;
    });
    try {
      const client = createIntegrationsClient(integrations.url, testEnv().internalTokenKeys);
      const a = await newOrganizationWithKey(['read', 'write', 'admin']);
      const b = await newOrganizationWithKey(['read', 'write', 'admin']);
      const hanging = await Promise.all(Array.from({ length: SLOTS + 2 }, () => receiver('hang')));
      const crowded = await receiver('hang');
      const healthy = await receiver('ok');
      const aHooks: string[] = [];
      let closedAt = new Date(0);
      try {
        // A: SLOTS + 2 endpoints with one delivery each (the ping), and one endpoint with four.
        for (const r of hanging) aHooks.push((await client.forOrganization(a.organization.id).webhooks.create.mutate({ url: r.url, events: ['*'] })).id);
        const crowdedHook = await client.forOrganization(a.organization.id).webhooks.create.mutate({ url: crowded.url, events: ['*'] });
        aHooks.push(crowdedHook.id);
        for (let i = 0; i < 3; i++) await client.forOrganization(a.organization.id).webhooks.test.mutate({ id: crowdedHook.id });
        // Every first attempt failed (500): A's deliveries are retry workflows, and their retries hang.
        const aOpen = () => hanging.reduce((n, r) => n + r.state.open, crowded.state.open);
        assert.ok((await eventually(async () => aOpen(), (n) => n >= SLOTS, 60_000)) >= SLOTS, 'A\'s retries are hanging');

        // B: one endpoint that fails the first attempt and takes the retry.
        const bHook = await client.forOrganization(b.organization.id).webhooks.create.mutate({ url: healthy.url, events: ['*'] });
        const bRetry = await eventually(
          async () => (await db.query(`select attempt, status_code, created_at from integrations.delivery_attempts where webhook_id = $1 and attempt = 2`, [bHook.id])).rows[0],
          (row) => row !== undefined,
          90_000,
        );
        assert.equal(bRetry?.status_code, 200, 'B\'s retry was made and delivered');
        const aEndedFirst = await db.query(
          `select count(*)::int as n from integrations.delivery_attempts where organization_id = $1 and attempt >= 2 and created_at <= $2`,
          [a.organization.id, bRetry.created_at],
        );
        assert.equal(aEndedFirst.rows[0].n, 0, 'B\'s retry did not wait for A\'s hanging retries to end');

        // Nothing but each endpoint's cap bounds A's retries in flight: more than the worker's slots.
        assert.ok((await eventually(async () => aOpen(), (n) => n > SLOTS, 20_000)) > SLOTS, `A's retries in flight at once: ${aOpen()}`);
        assert.ok(crowded.state.mostOpen <= ENDPOINT_CAP, `at most ${ENDPOINT_CAP} attempts in flight to one endpoint: ${crowded.state.mostOpen}`);
        assert.equal(await eventually(async () => crowded.state.open, (n) => n >= ENDPOINT_CAP, 20_000), ENDPOINT_CAP, 'the crowded endpoint is at its cap');
      } finally {
        // Deleting A's endpoints cancels their deliveries and stops their workflows; the attempts in
        // flight end when the receivers close, and are logged.
        for (const id of aHooks) await client.forOrganization(a.organization.id).webhooks.delete.mutate({ id });
        closedAt = (await db.query<{ now: Date }>('select now()')).rows[0]!.now;
        await Promise.all([...hanging, crowded, healthy].map((r) => r.close()));
      }
      // An endpoint at its cap was not tried: every logged attempt is a request the receiver got.
      // Not counted: attempts that found no receiver after it had closed (refused, or a reset of an
      // idle keep-alive socket); one claimed just before the endpoint's delete may connect after
      // the close, on a busy machine.
      const logged = async () =>
        (
          await db.query(
            `select count(*)::int as n from integrations.delivery_attempts where webhook_id = $1
              and not (created_at >= $2 and status_code is null and error in ('connection refused', 'connection reset by the receiver'))`,
            [aHooks.at(-1), closedAt],
          )
        ).rows[0].n as number;
      assert.equal(await eventually(logged, (n) => n >= crowded.state.requests, 20_000), crowded.state.requests, 'attempts logged = requests received');
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(await logged(), crowded.state.requests, 'no attempt logged that the receiver did not get');
    } finally {
      await worker.child.stop();
      await integrations.child.stop();
    }
  });
});
