import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Webhook as SvixWebhook } from 'svix';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { call, eventually, newOrganizationWithKey, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { startReceiver } from './webhook-receiver.js';

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

const integrations = () => createIntegrationsClient(process.env['INTEGRATIONS_URL']!, testEnv().internalTokenKeys);

async function register(key: string, url: string, events: string[] = ['*']) {
  const res = await call('POST', '/api/v1/webhooks', { key, body: { url, events, description: 'test receiver' } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string; secret: string; status: string; url: string; events: string[] };
}

describe('POST /api/v1/webhooks', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });

  it('registers: 201 with a whsec_ secret shown once; GET and the list never show it; it is sealed at rest', async () => {
    const receiver = await startReceiver();
    try {
      const created = await register(org.key, receiver.url, ['candidate.created', 'interview.completed']);
      assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
      assert.equal(Buffer.from(created.secret.slice(6), 'base64').length, 24);
      assert.equal(created.status, 'enabled');
      const got = await call('GET', `/api/v1/webhooks/${created.id}`, { key: org.key });
      assert.equal(got.status, 200);
      assert.equal(got.body.data.secret, undefined);
      const list = await call('GET', '/api/v1/webhooks', { key: org.key });
      assert.ok(list.body.data.some((w: { id: string }) => w.id === created.id));
      const secretPart = created.secret.slice(6);
      for (const text of [got.text, list.text]) assert.ok(!text.includes(secretPart), 'no secret in GET or list');
      const stored = await db.query(`select * from integrations.webhooks where id = $1`, [created.id]);
      assert.ok(!JSON.stringify(stored.rows[0]).includes(secretPart), 'not in the database in clear');
      // Give the ping a moment to go out, then check every process log of the stack.
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      const stackDir = process.env['TEST_DATA_DIR']!;
      const logs = readdirSync(stackDir).filter((f) => f.endsWith('.log')).map((f) => readFileSync(join(stackDir, f), 'utf8')).join('\n');
      assert.ok(logs.length > 0);
      assert.ok(!logs.includes(secretPart), 'no secret in any log');
    } finally {
      await receiver.close();
    }
  });

  it('sends webhook.ping right away, signed so an independent Standard Webhooks library verifies it', async () => {
    const receiver = await startReceiver();
    try {
      const created = await register(org.key, receiver.url, ['position.created']);
      const [ping] = (await eventually(async () => receiver.of('webhook.ping'), (r) => r.length > 0, 15_000));
      assert.ok(ping, 'ping delivered');
      assert.equal(ping.event.data.webhook.id, created.id);
      assert.match(ping.event.id, /^evt_/);
      assert.equal(ping.headers['webhook-id'], ping.event.id);
      assert.match(String(ping.headers['webhook-signature']), /^v1,[A-Za-z0-9+/=]+$/);
      const headers = { 'webhook-id': String(ping.headers['webhook-id']), 'webhook-timestamp': String(ping.headers['webhook-timestamp']), 'webhook-signature': String(ping.headers['webhook-signature']) };
      const standard = new StandardWebhook(created.secret).verify(ping.body, headers) as { type: string };
      assert.equal(standard.type, 'webhook.ping');
      // svix is a separate implementation of the Standard Webhooks scheme.
      const verified = new SvixWebhook(created.secret).verify(ping.body, headers) as { type: string };
      assert.equal(verified.type, 'webhook.ping');
      assert.throws(() => new SvixWebhook(created.secret).verify(ping.body.replace('webhook.ping', 'webhook.pong'), headers));
    } finally {
      await receiver.close();
    }
  });

  it('validates the event filter: known types or "*", no duplicates', async () => {
    for (const events of [[], ['candidate.deleted'], ['candidate.created', 'candidate.created'], ['*', 'candidate.created'], ['webhook.ping'], 'candidate.created']) {
      const res = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: 'https://example.com/hooks', events } });
      assert.equal(res.status, 422, `${JSON.stringify(events)}: ${res.text}`);
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path.startsWith('events')), JSON.stringify(res.body.error.details));
    }
    // An unknown type's detail says what is accepted (zod's own word for it was "Invalid input").
    const unknown = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: 'https://example.com/hooks', events: ['candidate.created', 'webhook.ping'] } });
    const detail = unknown.body.error.details.find((d: { path: string }) => d.path === 'events.1');
    assert.match(detail?.message ?? '', /not an event type a webhook subscribes to: "\*" or one of candidate\.created, .*every webhook gets webhook\.ping/, unknown.text);
  });

  it('refuses private, link-local, metadata and non-https URLs (SSRF)', async () => {
    for (const url of ['https://10.0.0.8/hook', 'https://192.168.1.20/hook', 'https://172.16.5.5/hook', 'https://169.254.169.254/latest/meta-data', 'https://[fe80::1]/hook', 'https://[fd00::1]/hook', 'https://0.0.0.0/hook', 'http://93.184.216.34/hook', 'https://user:pw@127.0.0.1/hook', 'ftp://127.0.0.1/hook']) {
      const res = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url, events: ['*'] } });
      assert.equal(res.status, 422, `${url}: ${res.text}`);
      assert.equal(res.body.error.details[0].path, 'url', url);
    }
  });

  it('refuses loopback when the development flag is off (the production setting)', async () => {
    const strict = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', { WEBHOOK_ALLOW_LOOPBACK: 'false', TEMPORAL_TASK_QUEUE: `strict-${process.pid}` });
    try {
      const client = createIntegrationsClient(strict.url, testEnv().internalTokenKeys).forOrganization(org.organization.id);
      for (const url of ['http://127.0.0.1:9/hook', 'https://127.0.0.1/hook', 'https://[::1]/hook', 'https://localhost/hook']) {
        await assert.rejects(client.webhooks.create.mutate({ url, events: ['*'] }), /loopback|https/, url);
      }
    } finally {
      await strict.child.stop();
    }
  });
});

describe('webhook delivery', () => {
  it('fans each event out to the webhooks subscribed to its type', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const all = await startReceiver();
    const candidates = await startReceiver();
    const positions = await startReceiver();
    try {
      await register(org.key, all.url, ['*']);
      await register(org.key, candidates.url, ['candidate.created']);
      await register(org.key, positions.url, ['position.created']);
      const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `fan-${Date.now()}@example.com`, name: 'Fan Out' } });
      const [toAll] = await eventually(async () => all.of('candidate.created'), (r) => r.length > 0, 15_000);
      const [toCandidates] = await eventually(async () => candidates.of('candidate.created'), (r) => r.length > 0, 15_000);
      assert.equal(toAll?.event.data.id, created.body.data.id);
      assert.deepEqual(toCandidates?.event, toAll?.event, 'the same event, same id, to each webhook');
      assert.match(toAll!.event.id, /^evt_/);
      assert.equal(toAll!.event.type, 'candidate.created');
      assert.ok(toAll!.event.createdAt);
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(positions.of('candidate.created').length, 0, 'not subscribed');
      assert.equal(candidates.of('candidate.created').length, 1, 'delivered once');
    } finally {
      await Promise.all([all.close(), candidates.close(), positions.close()]);
    }
  });

  it('a receiver failing 3 times then succeeding gets one successful delivery and 4 logged attempts', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    // The first reply goes to the registration ping.
    const receiver = await startReceiver([{ status: 200 }, { status: 500 }, { status: 502 }, { status: 404 }]);
    try {
      const hook = await register(org.key, receiver.url, ['position.created']);
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      receiver.received.length = 0;
      await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Retry me' } });
      const deliveries = await eventually(async () => receiver.of('position.created'), (r) => r.length >= 4, 30_000);
      assert.equal(deliveries.length, 4);
      assert.equal(new Set(deliveries.map((d) => d.event.id)).size, 1, 'the same event each time');
      const attempts = await eventually(
        async () => (await integrations().forOrganization(org.organization.id).webhooks.attempts.query({ webhookId: hook.id, limit: 25 })).items.filter((a) => a.eventType === 'position.created'),
        (a) => a.length >= 4,
      );
      assert.deepEqual(attempts.map((a) => a.statusCode).reverse(), [500, 502, 404, 200]);
      assert.deepEqual(attempts.map((a) => a.attempt).reverse(), [1, 2, 3, 4]);
      assert.ok(attempts.every((a) => a.latencyMs >= 0 && (a.responseExcerpt ?? '').length <= 1024));
      await new Promise((r) => setTimeout(r, 2500));
      assert.equal(receiver.of('position.created').length, 4, 'nothing after the success');
    } finally {
      await receiver.close();
    }
  });

  it('410 Gone disables the endpoint and stops the retries', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ status: 410 }]);
    try {
      const hook = await register(org.key, receiver.url, ['*']);
      const state = await eventually(async () => (await call('GET', `/api/v1/webhooks/${hook.id}`, { key: org.key })).body.data, (w) => w.status === 'disabled', 15_000);
      assert.equal(state.status, 'disabled');
      assert.match(state.disabledReason, /410/);
      await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Nobody hears this' } });
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal(receiver.received.length, 1, 'only the ping, answered 410');
    } finally {
      await receiver.close();
    }
  });

  it('honours Retry-After on 429', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ status: 429, headers: { 'retry-after': '4' } }]);
    try {
      await register(org.key, receiver.url, ['*']);
      const pings = await eventually(async () => receiver.of('webhook.ping'), (r) => r.length >= 2, 90_000);
      const waited = pings[1]!.at - pings[0]!.at;
      assert.ok(waited >= 3900, `waited ${waited} ms; the schedule alone would be 1 s`);
    } finally {
      await receiver.close();
    }
  });

  it('an endpoint failing every delivery for 5 days is disabled', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ status: 200 }, { status: 500 }]);
    try {
      const hook = await register(org.key, receiver.url, ['position.created']);
      // The ping's success recorded (it clears the failure run in the same commit), not only received:
      // a failure run set before that commit would be cleared by it.
      await eventually(
        async () => (await db.query(`select status from integrations.deliveries where webhook_id = $1 and event_type = 'webhook.ping'`, [hook.id])).rows[0]?.status,
        (status) => status === 'delivered',
        15_000,
      );
      await db.query(`update integrations.webhooks set failing_since = now() - interval '5 days 1 minute' where id = $1`, [hook.id]);
      await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'The last straw' } });
      const state = await eventually(async () => (await call('GET', `/api/v1/webhooks/${hook.id}`, { key: org.key })).body.data, (w) => w.status === 'disabled', 15_000);
      assert.match(state.disabledReason, /5 days/);
    } finally {
      await receiver.close();
    }
  });

  it('survives the worker being killed during a retry wait', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver([{ status: 503 }]);
    const queue = `kill-test-${process.pid}`;
    const env = { TEMPORAL_TASK_QUEUE: queue, WEBHOOK_RETRY_SCHEDULE: '6s' };
    const service = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
    const workerEnv = { ...env, INTEGRATIONS_URL: service.url, WEBHOOK_ALLOW_LOOPBACK: 'true' };
    let worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', workerEnv);
    try {
      const client = createIntegrationsClient(service.url, testEnv().internalTokenKeys).forOrganization(org.organization.id);
      const hook = await client.webhooks.create.mutate({ url: receiver.url, events: ['*'] });
      await eventually(async () => (await client.webhooks.attempts.query({ webhookId: hook.id, limit: 5 })).items.length, (n) => n >= 1, 20_000);
      await new Promise((r) => setTimeout(r, 500));
      // The first attempt failed and is logged; the workflow now sleeps on a durable timer. Kill the worker hard.
      worker.child.process.kill('SIGKILL');
      await worker.child.exited;
      await new Promise((r) => setTimeout(r, 1000));
      worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', workerEnv);
      const received = await eventually(async () => receiver.received.length, (n) => n >= 2, 30_000);
      assert.equal(received, 2, 'the retry was delivered by the new worker');
      assert.ok(receiver.received[1]!.at - receiver.received[0]!.at >= 5900);
    } finally {
      await worker.child.stop();
      await service.child.stop();
      await receiver.close();
    }
  });
});

describe('GET and DELETE /api/v1/webhooks/{id}', () => {
  it('DELETE answers 204, then the webhook is 404 and out of the list', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await register(org.key, receiver.url);
      const del = await call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: org.key });
      assert.equal(del.status, 204);
      assert.equal(del.text, '');
      assert.equal(del.headers.get('content-type'), null, 'no content, so no type');
      assert.equal((await call('GET', `/api/v1/webhooks/${hook.id}`, { key: org.key })).status, 404);
      assert.equal((await call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: org.key })).status, 404);
      const list = await call('GET', '/api/v1/webhooks', { key: org.key });
      assert.ok(!list.body.data.some((w: { id: string }) => w.id === hook.id));
    } finally {
      await receiver.close();
    }
  });

  it('another organization\'s webhook is 404 on GET and DELETE', async () => {
    const a = await newOrganizationWithKey(['read', 'write', 'admin']);
    const b = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await register(a.key, receiver.url);
      for (const method of ['GET', 'DELETE']) {
        const res = await call(method, `/api/v1/webhooks/${hook.id}`, { key: b.key });
        assert.equal(res.status, 404, method);
        assert.equal(res.body.error.code, 'not_found');
      }
      assert.deepEqual((await call('GET', '/api/v1/webhooks', { key: b.key })).body.data, []);
      assert.equal((await call('GET', `/api/v1/webhooks/${hook.id}`, { key: a.key })).status, 200);
    } finally {
      await receiver.close();
    }
  });
});
