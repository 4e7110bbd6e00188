import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { createIdentityClient } from '@hireloop/identity/client';
import { eventually, startTestServer } from '@hireloop/devstack/testing';
import type { Scope } from '@hireloop/contracts';
import { startTestTopology } from '../src/testing.js';
import type { Topology } from '../src/topology.js';

/**
 * Issue 8's production shape, from the runtime tree: two gateways, two instances of each service
 * and two workers, one Postgres with a role per service, the Temporal dev server. Requests are
 * spread over both gateways; the shared state must behave as one system (PRODUCT.md §4, §6, §8).
 */
let topology: Topology & { logFile: string };
let db: pg.Client;

before(async () => {
  topology = await startTestTopology('production-shape', {
    env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s' },
    // The SDK logs each workflow's and activity's start and end at debug level.
    roleEnv: { worker: { LOG_LEVEL: 'debug' } },
  });
  db = new pg.Client({ connectionString: topology.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await topology?.stop();
});

async function newKey(scopes: Scope[], rateLimitPerMinute?: number) {
  const identity = createIdentityClient(topology.serviceUrls['identity']!, topology.env['INTERNAL_TOKEN_KEYS']!);
  const organization = await identity.system.organizations.create.mutate({ name: `Topology ${randomUUID().slice(0, 8)}` });
  const key = await identity.forOrganization(organization.id).apiKeys.create.mutate({ name: 'topology', scopes, rateLimitPerMinute });
  return { organizationId: organization.id, key: key.key };
}

/** Request `n` goes to gateway `n % 2`. */
async function call(n: number, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${topology.gateways[n % topology.gateways.length]}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as any) : undefined };
}

/** A webhook receiver that answers 500 to the first attempt of every delivery (by webhook-id), then 200. */
async function startFlakyReceiver() {
  const answered: Array<{ webhookId: string; status: number; type: string }> = [];
  const server = await startTestServer((req, body) => {
    const webhookId = String(req.headers['webhook-id']);
    const status = answered.some((a) => a.webhookId === webhookId) ? 200 : 500;
    answered.push({ webhookId, status, type: (JSON.parse(body) as { type: string }).type });
    return { status, body: '{}' };
  });
  return { url: `${server.url}/hooks`, answered, close: server.close };
}

describe('production shape: 2 gateways, 2 of each service, 2 workers, from the runtime tree', () => {
  it('every process runs from dist under NODE_ENV=production, each service as its own Postgres role', async () => {
    assert.equal(topology.processes.length, 10);
    for (const p of topology.processes) assert.ok(p.child, `${p.name} is running`);
    const { rows } = await db.query<{ usename: string }>(`select distinct usename from pg_stat_activity where datname = current_database() and usename <> current_user order by 1`);
    assert.deepEqual(rows.map((r) => r.usename), ['hireloop_gateway', 'hireloop_identity', 'hireloop_integrations', 'hireloop_recruiting']);
  });

  it('one rate limit, shared by both gateways', async () => {
    const { key } = await newKey(['read'], 4);
    const results = [];
    for (let n = 0; n < 6; n++) results.push(await call(n, key, 'GET', '/me'));
    // Alternating gateways draw from one bucket: 4 requests in all, not 4 per gateway.
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200, 200, 429, 429], results.map((r) => r.text).join('\n'));
    assert.deepEqual(results.slice(0, 4).map((r) => r.headers.get('x-ratelimit-remaining')), ['3', '2', '1', '0']);
    assert.equal(results[5]!.body.error.code, 'rate_limited');
  });

  it('one consistent result for an Idempotency-Key sent to both gateways at once', async () => {
    const { key, organizationId } = await newKey(['read', 'write']);
    const title = `Idempotent ${randomUUID()}`;
    const headers = { 'idempotency-key': randomUUID() };
    const first = await Promise.all(Array.from({ length: 10 }, (_, n) => call(n, key, 'POST', '/positions', { title }, headers)));
    // At most one runs; the others see it in progress (409) or replay it.
    assert.ok(first.every((r) => r.status === 201 || (r.status === 409 && r.body.error.code === 'idempotency_key_in_use')), first.map((r) => `${r.status} ${r.text}`).join('\n'));
    // A client retries its 409s: every answer then is the one result, whichever gateway it asks.
    const final = await Promise.all(
      first.map((r, n) => (r.status === 201 ? r : eventually(() => call(n, key, 'POST', '/positions', { title }, headers), (x) => x.status !== 409, 30_000))),
    );
    const ids = new Set(final.map((r) => r.body?.data?.id));
    assert.equal(ids.size, 1, final.map((r) => `${r.status} ${r.text}`).join('\n'));
    assert.ok(final.every((r) => r.status === 201 && r.body.data.title === title));
    assert.equal(final.filter((r) => r.headers.get('idempotent-replayed') !== 'true').length, 1, 'executed once, replayed otherwise');
    const stored = await db.query(`select id from recruiting.positions where organization_id = $1 and title = $2`, [organizationId, title]);
    assert.equal(stored.rowCount, 1);
  });

  it('each outbox event published once and each delivery made once in effect, with every relay, dispatcher and worker doubled', async () => {
    const { key, organizationId } = await newKey(['read', 'write', 'admin']);
    const receivers = await Promise.all([startFlakyReceiver(), startFlakyReceiver()]);
    try {
      for (const [n, r] of receivers.entries()) {
        const hook = await call(n, key, 'POST', '/webhooks', { url: r.url, events: ['position.created'] });
        assert.equal(hook.status, 201, hook.text);
      }
      // Writes over both gateways: each one's outbox row is published by one of two recruiting relays.
      const created = await Promise.all(Array.from({ length: 20 }, (_, n) => call(n, key, 'POST', '/positions', { title: `Spread ${n}` })));
      assert.ok(created.every((r) => r.status === 201), created.map((r) => r.text).join('\n'));

      // Every first attempt fails, so every delivery is retried by a workflow on one of the workers.
      const deliveries = async () =>
        (await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from integrations.deliveries where organization_id = $1 and event_type = 'position.created' group by status`, [organizationId])).rows;
      const settled = await eventually(deliveries, (rows) => rows.length === 1 && rows[0]!.status === 'delivered' && rows[0]!.n === 40, 120_000, 500);
      assert.deepEqual(settled, [{ status: 'delivered', n: 40 }], 'two endpoints × 20 events, all delivered');

      const events = await db.query<{ id: string }>(`select id from integrations.events where organization_id = $1 and type = 'position.created'`, [organizationId]);
      assert.equal(events.rowCount, 20, 'each outbox row became one event');
      const outbox = await db.query(`select count(*)::int as n from recruiting.outbox where organization_id = $1 and published_at is null`, [organizationId]);
      assert.equal(outbox.rows[0].n, 0, 'every outbox row marked published');

      for (const r of receivers) {
        const events = r.answered.filter((a) => a.type === 'position.created');
        const succeeded = events.filter((a) => a.status === 200).map((a) => a.webhookId);
        assert.equal(succeeded.length, 20, 'one successful attempt per delivery');
        assert.equal(new Set(succeeded).size, 20, 'no delivery succeeded twice');
        assert.equal(new Set(events.map((a) => a.webhookId)).size, 20, 'one webhook-id per event, kept across its attempts');
      }
      // Every attempt the receivers saw is in the attempt log, and no more.
      const attempts = await db.query(`select count(*)::int as n from integrations.delivery_attempts where organization_id = $1 and event_type = 'position.created'`, [organizationId]);
      assert.equal(attempts.rows[0].n, receivers.reduce((sum, r) => sum + r.answered.filter((a) => a.type === 'position.created').length, 0));
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });

  it('the request id that started a workflow is in its memo and on its workflow and activity log lines', async () => {
    const { key } = await newKey(['read', 'write']);
    const requestId = `topology-${randomUUID()}`;
    const created = await call(1, key, 'POST', '/ai/job-description', { title: 'Site Reliability Engineer' }, { 'x-request-id': requestId });
    assert.equal(created.status, 202, created.text);
    const taskId = created.body.data.id as string;
    const task = await eventually(async () => (await call(0, key, 'GET', `/tasks/${taskId}`)).body.data, (t) => t.status === 'succeeded' || t.status === 'failed', 60_000);
    assert.equal(task.status, 'succeeded', JSON.stringify(task));

    const connection = await Connection.connect({ address: topology.temporal.address });
    try {
      const described = await new Client({ connection }).workflow.getHandle(`jd:${taskId}`).describe();
      assert.deepEqual(described.memo, { requestId }, 'the memo holds the request id, and nothing else');
    } finally {
      await connection.close();
    }
    const lines = () =>
      readFileSync(topology.logFile, 'utf8').split('\n')
        .filter((l) => /^worker-\d/.test(l) && l.includes(requestId))
        .map((l) => JSON.parse(l.slice(l.indexOf('| ') + 2)) as { msg: string; requestId: string; workflowId?: string; activityType?: string });
    const logged = await eventually(async () => lines(), (ls) => ls.some((l) => l.msg === 'Workflow completed'), 10_000);
    assert.ok(logged.some((l) => l.msg === 'Activity completed' && l.activityType && l.requestId === requestId), JSON.stringify(logged));
    assert.ok(logged.some((l) => l.msg === 'Workflow completed' && l.workflowId === `jd:${taskId}`), JSON.stringify(logged));
  });

  it('traffic reached both instances of every service', () => {
    for (const [role, balancer] of Object.entries(topology.balancers)) {
      const instances = topology.processes.filter((p) => p.role === role);
      for (const p of instances) assert.ok((balancer.connections.get(p.port) ?? 0) > 0, `${p.name} took connections`);
    }
  });
});
