import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call, eventually, newOrganizationWithKey, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { startReceiver, type Received } from './webhook-receiver.js';
import { payloadTexts } from './temporal-history.js';
import { stackConnections } from './stack-connections.js';

// The delivery pipeline of PRODUCT.md §8: dispatchers claim committed deliveries from Postgres;
// Temporal only waits, one retry loop per endpoint with retries (`endpoint:<webhook>`).
// Mechanisms are asserted, not timings (CLARIFICATIONS).

const stack = stackConnections();

async function register(key: string, url: string, events: string[] = ['*']) {
  const res = await call('POST', '/api/v1/webhooks', { key, body: { url, events } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; secret: string };
}

function verify(secret: string, r: Received) {
  const headers = { 'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']), 'webhook-signature': String(r.headers['webhook-signature']) };
  return new StandardWebhook(secret).verify(r.body, headers) as { id: string };
}

async function deliveryWorkflows(query: string) {
  const found: { id: string; status: string }[] = [];
  for await (const wf of stack.temporal.workflow.list({ query })) found.push({ id: wf.workflowId, status: wf.status.name });
  return found;
}

describe('webhook delivery pipeline', () => {
  it('the happy path needs no Temporal workflow; each delivery is one row, delivered once', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await register(org.key, receiver.url, ['position.created']);
      for (let i = 0; i < 5; i++) await call('POST', '/api/v1/positions', { key: org.key, body: { title: `Happy ${i}` } });
      await eventually(async () => receiver.of('position.created').length, (n) => n >= 5, 20_000);
      for (const r of receiver.received) verify(hook.secret, r);
      // The receiver has them; each is marked delivered once the dispatcher's record of its attempt commits.
      const deliveries = async () => (await stack.db.query(`select status, attempts from integrations.deliveries where webhook_id = $1`, [hook.id])).rows;
      const rows = await eventually(deliveries, (r) => r.length === 6 && r.every((x) => x.status !== 'pending'), 20_000);
      assert.equal(rows.length, 6, 'ping + 5 events');
      assert.ok(rows.every((r) => r.status === 'delivered' && r.attempts === 1), JSON.stringify(rows));
      assert.deepEqual(await deliveryWorkflows(`OrganizationId = '${org.organization.id}' AND Kind = 'webhook_delivery'`), []);
    } finally {
      await receiver.close();
    }
  });

  it('two integrations instances dispatching from one table make no delivery twice', async () => {
    const second = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', {});
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receivers = await Promise.all([0, 1, 2, 3].map(() => startReceiver()));
    try {
      const hooks = await Promise.all(receivers.map((r) => register(org.key, r.url, ['position.created'])));
      await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', '/api/v1/positions', { key: org.key, body: { title: `Twice? ${i}` } })));
      for (const r of receivers) await eventually(async () => r.of('position.created').length, (n) => n >= 10, 30_000);
      await new Promise((r) => setTimeout(r, 1000));
      for (const r of receivers) {
        const ids = r.of('position.created').map((x) => x.event.id);
        assert.equal(ids.length, 10);
        assert.equal(new Set(ids).size, 10, 'each event once');
      }
      const { rows } = await stack.db.query(`select count(*)::int as n from integrations.delivery_attempts where webhook_id = any($1)`, [hooks.map((h) => h.id)]);
      assert.equal(rows[0].n, 4 * 11, 'one attempt per delivery (ping + 10 events, 4 endpoints)');
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
      await second.child.stop();
    }
  });

  it('a dispatcher SIGKILLed holding a lease: the delivery still arrives, through its endpoint\'s retry loop', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ hang: true }]);
    const env = { TEMPORAL_TASK_QUEUE: `dispatcher-kill-${process.pid}`, WEBHOOK_TIMEOUT_MS: '4000', WEBHOOK_LEASE_MS: '5000' };
    const first = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
    let survivor: Awaited<ReturnType<typeof startExtraProcess>> | null = null;
    let worker: Awaited<ReturnType<typeof startExtraProcess>> | null = null;
    try {
      const hook = await createIntegrationsClient(first.url, testEnv().internalTokenKeys).forOrganization(org.organization.id).webhooks.create.mutate({ url: receiver.url, events: ['*'] });
      await eventually(async () => receiver.received.length, (n) => n >= 1, 20_000, 20);
      first.child.process.kill('SIGKILL'); // mid-request, holding the lease
      await first.child.exited;
      const held = await stack.db.query(`select id, status, lease_until from integrations.deliveries where webhook_id = $1`, [hook.id]);
      assert.equal(held.rows[0].status, 'pending');
      assert.ok(held.rows[0].lease_until, 'leased by the dead dispatcher');
      const deliveryId = held.rows[0].id as string;

      survivor = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
      worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, INTEGRATIONS_URL: survivor.url });
      const state = await eventually(
        async () => (await stack.db.query(`select status, attempts from integrations.deliveries where id = $1`, [deliveryId])).rows[0],
        (r) => r.status === 'delivered',
        60_000,
      );
      assert.equal(state.status, 'delivered');
      assert.equal(receiver.received.length, 2, 'the hung request, then the one through Temporal');
      assert.equal(receiver.received[1]!.headers['webhook-id'], receiver.received[0]!.headers['webhook-id'], 'same webhook-id');
      verify(hook.secret, receiver.received[1]!);
      const [wf] = await eventually(() => deliveryWorkflows(`WorkflowId = 'endpoint:${hook.id}'`), (w) => w[0]?.status === 'COMPLETED', 15_000);
      assert.equal(wf?.status, 'COMPLETED', 'the lease expired, so the endpoint\'s retry loop made the delivery, then ended with its queue empty');
    } finally {
      await receiver.close();
      await worker?.child.stop();
      await survivor?.child.stop();
    }
  });

  it('retry loops carry ids only: no e-mail, name or secret in any history', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ status: 500 }, { status: 500 }, { status: 500 }]);
    try {
      const hook = await register(org.key, receiver.url, ['candidate.created']);
      const email = `history-${Date.now()}@example.com`;
      const name = 'Historia Unwritten';
      await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name } });
      await eventually(async () => receiver.of('candidate.created').length, (n) => n >= 2, 20_000);
      const workflows = await eventually(() => deliveryWorkflows(`OrganizationId = '${org.organization.id}' AND Kind = 'webhook_delivery'`), (w) => w.length >= 1, 15_000);
      assert.ok(workflows.length >= 1);
      for (const wf of workflows) {
        assert.equal(wf.id, `endpoint:${hook.id}`);
        const history = await stack.temporal.workflow.getHandle(wf.id).fetchHistory();
        const payloads = payloadTexts(history);
        const [input] = payloads;
        assert.deepEqual(Object.keys(JSON.parse(input ?? '{}')).sort(), ['organizationId', 'roundsPerRun', 'webhookId'], `the input is ids: ${input}`);
        const text = payloads.join('\n');
        for (const secret of [email, name, hook.secret.slice(6), 'whsec_']) assert.ok(!text.includes(secret), `${wf.id} holds ${secret}`);
      }
    } finally {
      await receiver.close();
    }
  });

  it('isolation on one host: a hanging endpoint does not take the connections of another endpoint there', async () => {
    const a = await newOrganizationWithKey(['read', 'write', 'admin']);
    const b = await newOrganizationWithKey(['read', 'write', 'admin']);
    // One receiver, so one origin (as for the endpoints of many customers on a SaaS host): A's path never answers.
    const receiver = await startReceiver([], (path) => (path.startsWith('/hooks/a') ? { hang: true } : { status: 200 }));
    try {
      const aHook = await register(a.key, `${receiver.url}/a`, ['position.created']);
      await register(b.key, `${receiver.url}/b`, ['position.created']);
      for (let i = 0; i < 10; i++) await call('POST', '/api/v1/positions', { key: a.key, body: { title: `A ${i}` } });
      const aHanging = () => receiver.received.filter((r) => r.path.startsWith('/hooks/a'));
      // A's endpoint holds its whole cap (WEBHOOK_ENDPOINT_CONCURRENCY, 8: its ping and 7 positions) of requests open.
      assert.equal((await eventually(async () => aHanging(), (r) => r.length >= 8, 20_000)).length, 8);
      for (let i = 0; i < 3; i++) await call('POST', '/api/v1/positions', { key: b.key, body: { title: `B ${i}` } });
      const bGot = await eventually(async () => receiver.received.filter((r) => r.path.startsWith('/hooks/b') && r.event.type === 'position.created'), (r) => r.length >= 3, 30_000);
      assert.equal(bGot.length, 3, 'B\'s deliveries arrived');
      // B did not wait for a connection that one of A's requests gave up: every one of them is still open.
      assert.deepEqual(aHanging().map((r) => r.open), Array(8).fill(true), 'A\'s requests were all still in flight when B\'s arrived');
      const attempts = await stack.db.query(`select count(*)::int as n from integrations.delivery_attempts where webhook_id = $1`, [aHook.id]);
      assert.equal(attempts.rows[0].n, 0, 'none of A\'s attempts had ended');
    } finally {
      await receiver.close();
    }
  });

  it('isolation: org A\'s 20 failing or hanging endpoints do not hold up org B; deleting them leaves no running workflow', async () => {
    const a = await newOrganizationWithKey(['read', 'write', 'admin']);
    const b = await newOrganizationWithKey(['read', 'write', 'admin']);
    const failing = await startReceiver([], { status: 500 });
    const hanging = await startReceiver([], { hang: true });
    const healthy = await startReceiver();
    try {
      const aHooks = [];
      for (let i = 0; i < 10; i++) aHooks.push(await register(a.key, `${failing.url}?n=${i}`));
      for (let i = 0; i < 10; i++) aHooks.push(await register(a.key, `${hanging.url}?n=${i}`));
      const bHook = await register(b.key, healthy.url, ['position.created']);
      for (let i = 0; i < 5; i++) await call('POST', '/api/v1/positions', { key: a.key, body: { title: `A ${i}` } });
      // A is now in backoff (500s become retry workflows) and hanging (its leases held).
      await eventually(async () => (await stack.db.query(`select count(*)::int as n from integrations.deliveries where organization_id = $1 and status = 'retrying'`, [a.organization.id])).rows[0].n, (n) => n > 0, 20_000);
      for (let i = 0; i < 5; i++) await call('POST', '/api/v1/positions', { key: b.key, body: { title: `B ${i}` } });
      const got = await eventually(async () => healthy.of('position.created'), (r) => r.length >= 5, 20_000);
      assert.equal(got.length, 5, 'B\'s deliveries went on');
      const aState = await stack.db.query(`select status, count(*)::int as n from integrations.deliveries where organization_id = $1 group by status`, [a.organization.id]);
      const aOpen = aState.rows.filter((r) => r.status === 'pending' || r.status === 'retrying').reduce((n, r) => n + r.n, 0);
      assert.ok(aOpen > 0, `A still in backoff or hanging while B was served: ${JSON.stringify(aState.rows)}`);
      const leased = await stack.db.query(`select webhook_id, count(*)::int as n from integrations.deliveries where organization_id = $1 and lease_until is not null group by webhook_id`, [a.organization.id]);
      assert.ok(leased.rows.every((r) => r.n <= 8), 'at most WEBHOOK_ENDPOINT_CONCURRENCY in flight per endpoint');
      // The receiver has them; each is marked delivered once the dispatcher records its attempt.
      const bUndelivered = async () => (await stack.db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = $1 and status <> 'delivered'`, [bHook.id])).rows[0].n;
      assert.equal(await eventually(bUndelivered, (n) => n === 0, 20_000), 0, 'every delivery of B is recorded as delivered');

      const running = `OrganizationId = '${a.organization.id}' AND Kind = 'webhook_delivery' AND ExecutionStatus = 'Running'`;
      assert.ok((await deliveryWorkflows(running)).length > 0, 'A has retry loops before the delete');
      for (const hook of aHooks) assert.equal((await call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: a.key })).status, 204);
      const open = await stack.db.query(`select count(*)::int as n from integrations.deliveries where organization_id = $1 and status in ('pending', 'retrying')`, [a.organization.id]);
      assert.equal(open.rows[0].n, 0, 'every pending delivery of A is cancelled');
      assert.deepEqual(await eventually(() => deliveryWorkflows(running), (w) => w.length === 0, 10_000), [], 'no running retry loop for A');
    } finally {
      await Promise.all([failing.close(), hanging.close(), healthy.close()]);
    }
  });
});
