import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { eventually, newOrganizationWithKey, startTestServer, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { stackConnections } from './stack-connections.js';
import { integrationsOfItsOwn } from './integrations-of-its-own.js';

// What a receiver answers, and what the delivery log makes of it (PRODUCT.md §8: "A 2xx within
// 15 s (a total deadline: connect, send and response headers; at most 1 KiB of the body is read)
// is success … Each attempt is logged"; CLARIFICATIONS: the retry schedule belongs to each
// delivery, the endpoint's loop only decides when its attempts are made). Found by a black-box
// run against `npm start`.
//
// An integrations service and a worker of this file's own: a 2 s deadline, the breaker open at
// the first failure, and a schedule of two waits (1 s, 2 s): three attempts in all.

const stack = stackConnections();
const env = {
  TEMPORAL_TASK_QUEUE: `answers-${process.pid}`,
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_LEASE_MS: '4000',
  WEBHOOK_BREAKER_FAILURES: '1',
  WEBHOOK_RETRY_SCHEDULE: '1s,2s',
};

type Attempt = { attempt: number; statusCode: number | null; responseExcerpt: string | null; error: string | null };

describe('what a receiver answers, in the delivery log', () => {
  let own: Awaited<ReturnType<typeof integrationsOfItsOwn>>;
  let integrations: typeof own.integrations;
  before(async () => {
    own = await integrationsOfItsOwn(env);
    integrations = own.integrations;
  });
  after(async () => {
    await own?.stop();
  });

  const hooksOf = (organizationId: string) => createIntegrationsClient(integrations.url, testEnv().internalTokenKeys).forOrganization(organizationId).webhooks;

  /** The endpoint's one delivery so far (its registration's ping). */
  const pingOf = async (webhookId: string) =>
    (await stack.db.query(`select id, status, attempts from integrations.deliveries where webhook_id = $1`, [webhookId])).rows as { id: string; status: string; attempts: number }[];

  async function attemptsOf(organizationId: string, webhookId: string, deliveryId: string): Promise<Attempt[]> {
    const { items } = await hooksOf(organizationId).attempts.query({ webhookId, deliveryId, limit: 100 });
    return items as Attempt[];
  }

  it('a 2xx whose body holds U+0000 is delivered once, its excerpt kept with U+FFFD (it was sent again at every lease\'s end)', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const arrivals: string[] = [];
    const receiver = await startTestServer((req) => {
      arrivals.push(String(req.headers['webhook-id']));
      return { status: 200, body: 'ok\u0000done' };
    });
    try {
      const hook = await hooksOf(org.organization.id).create.mutate({ url: `${receiver.url}/hooks`, events: ['*'] });
      const [ping] = await eventually(() => pingOf(hook.id), (r) => r.length === 1 && r[0]!.status === 'delivered', 20_000);
      const attempts = await attemptsOf(org.organization.id, hook.id, ping!.id);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.statusCode, a.responseExcerpt]), [[1, 200, 'ok\uFFFDdone']]);
      // Past a lease (4 s): nothing was sent again.
      await new Promise((r) => setTimeout(r, 5000));
      assert.equal(arrivals.length, 1, JSON.stringify(arrivals));
    } finally {
      await receiver.close();
    }
  });

  it('a 2xx whose body comes slower than the deadline is a success, with the part of the body that came', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    let arrivals = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivals++;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('accepted;');
        // The rest of the body after the 2 s deadline.
        const later = setTimeout(() => res.end(' and more'), 3000);
        res.on('close', () => clearTimeout(later));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const hook = await hooksOf(org.organization.id).create.mutate({ url: `http://127.0.0.1:${port}/hooks`, events: ['*'] });
      const [ping] = await eventually(() => pingOf(hook.id), (r) => r.length === 1 && r[0]!.status !== 'pending', 20_000);
      assert.equal(ping!.status, 'delivered');
      const attempts = await attemptsOf(org.organization.id, hook.id, ping!.id);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.statusCode, a.error]), [[1, 200, null]]);
      assert.equal(attempts[0]!.responseExcerpt, 'accepted;');
      assert.equal(arrivals, 1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a failing endpoint\'s probe makes a delivery\'s last scheduled attempt (it was dropped as "not attempted" the moment it came due)', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const arrivals: number[] = [];
    const receiver = await startTestServer(() => {
      arrivals.push(Date.now());
      return { status: 500, body: 'down' };
    });
    try {
      const hook = await hooksOf(org.organization.id).create.mutate({ url: `${receiver.url}/hooks`, events: ['*'] });
      const [ping] = await eventually(() => pingOf(hook.id), (r) => r.length === 1 && r[0]!.status === 'failed', 30_000);
      const attempts = await attemptsOf(org.organization.id, hook.id, ping!.id);
      assert.deepEqual(attempts.map((a) => [a.attempt, a.statusCode]).sort((a, b) => a[0]! - b[0]!), [[1, 500], [2, 500], [3, 500]], JSON.stringify(attempts));
      assert.equal(ping!.attempts, 3);
      assert.equal(arrivals.length, 3);
    } finally {
      await receiver.close();
    }
  });

  it('manual retries at once: every attempt has its own number, and the delivery counts each one made', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    let arrivals = 0;
    const receiver = await startTestServer(async () => {
      arrivals++;
      await new Promise((r) => setTimeout(r, 20));
      return { status: 200, body: '{}' };
    });
    try {
      const hooks = hooksOf(org.organization.id);
      const hook = await hooks.create.mutate({ url: `${receiver.url}/hooks`, events: ['*'] });
      const [ping] = await eventually(() => pingOf(hook.id), (r) => r.length === 1 && r[0]!.status === 'delivered', 20_000);
      for (let round = 0; round < 3; round++) {
        await Promise.all(Array.from({ length: 20 }, () => hooks.retryDelivery.mutate({ webhookId: hook.id, deliveryId: ping!.id })));
      }
      const settled = async () => ({ rows: await pingOf(hook.id), attempts: await attemptsOf(org.organization.id, hook.id, ping!.id) });
      const { rows, attempts } = await eventually(settled, (s) => s.rows[0]!.status === 'delivered' && s.attempts.length === arrivals, 30_000);
      const numbers = attempts.map((a) => a.attempt).sort((a, b) => a - b);
      assert.deepEqual(numbers, Array.from({ length: arrivals }, (_, i) => i + 1), 'numbered 1…n, no two alike');
      assert.equal(rows[0]!.attempts, arrivals, 'every attempt made is counted');
    } finally {
      await receiver.close();
    }
  });
});
