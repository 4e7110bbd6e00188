import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newKey, newOrganizationWithKey, startTestServer } from '@hireloop/devstack/testing';
import { registerWebhook, startReceiver, verifyDelivery } from './webhook-receiver.js';

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;

describe('webhook management routes', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });

  it('PATCH changes what the next event is filtered by, and the url, description, status', async () => {
    const first = await startReceiver();
    const second = await startReceiver();
    try {
      const hook = await registerWebhook(org.key, first.url, ['position.created']);
      await eventually(async () => first.of('webhook.ping').length, (n) => n > 0, 15_000);
      const patched = await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: { url: second.url, events: ['candidate.created'], description: 'moved' } });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(patched.body.data.events, ['candidate.created']);
      assert.equal(patched.body.data.url, second.url);
      assert.equal(patched.body.data.description, 'moved');
      assert.equal(typeof patched.body.data.stats.pending, 'number');
      await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Not any more' } });
      const cand = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `patched-${Date.now()}@example.com`, name: 'Pat Ched' } });
      const [got] = await eventually(async () => second.of('candidate.created'), (r) => r.length > 0, 15_000);
      assert.equal(got!.event.data.id, cand.body.data.id);
      verifyDelivery(hook.secret, got!);
      assert.equal(second.of('position.created').length + first.of('position.created').length, 0, 'the old filter no longer applies');

      assert.equal((await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: {} })).status, 422);
      assert.equal((await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: { url: 'https://10.0.0.1/x' } })).status, 422);
      const disabled = await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: { status: 'disabled' } });
      assert.equal(disabled.body.data.status, 'disabled');
      assert.ok(disabled.body.data.disabledReason);
      const enabled = await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: { status: 'enabled', description: null } });
      assert.equal(enabled.body.data.status, 'enabled');
      assert.equal(enabled.body.data.disabledReason, null);
      assert.equal(enabled.body.data.description, null);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('test sends a ping; rotate-secret signs with both secrets for the overlap, each verifies alone', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(org.key, receiver.url, ['position.created']);
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      const rotated = await call('POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: org.key });
      assert.equal(rotated.status, 200, rotated.text);
      const secret = rotated.body.data.secret as string;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, hook.secret);
      const test = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: org.key });
      assert.equal(test.status, 202, test.text);
      const pings = await eventually(async () => receiver.of('webhook.ping'), (r) => r.length >= 2, 15_000);
      const ping = pings.find((p) => p.event.id === test.body.data.eventId)!;
      assert.ok(ping, 'the test ping arrived');
      assert.equal(ping.event.data.webhook.id, hook.id);
      assert.match(String(ping.headers['webhook-signature']), /^v1,\S+ v1,\S+$/, 'two signatures');
      assert.equal(verifyDelivery(secret, ping).type, 'webhook.ping', 'a receiver holding only the new secret verifies');
      assert.equal(verifyDelivery(hook.secret, ping).type, 'webhook.ping', 'a receiver holding only the old secret verifies');
      assert.throws(() => verifyDelivery(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, ping));
    } finally {
      await receiver.close();
    }
  });

  it('the delivery log lists deliveries and their attempts; retry makes one extra attempt with the same webhook-id', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(org.key, receiver.url, ['position.created']);
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      const list = await eventually(
        async () => (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?eventType=webhook.ping`, { key: org.key })).body.data,
        (d) => d[0]?.status === 'delivered',
        15_000,
      );
      assert.equal(list.length, 1);
      const [delivery] = list;
      assert.match(delivery.id, /^dlv_/);
      assert.equal(delivery.attempts, 1);
      assert.equal(delivery.lastAttempt.statusCode, 200);
      assert.deepEqual((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?status=failed`, { key: org.key })).body.data, []);
      assert.equal((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?status=nope`, { key: org.key })).status, 422);

      const retried = await call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { key: org.key });
      assert.equal(retried.status, 202, retried.text);
      const pings = await eventually(async () => receiver.of('webhook.ping'), (r) => r.length >= 2, 15_000);
      assert.equal(pings.length, 2);
      assert.equal(pings[1]!.headers['webhook-id'], pings[0]!.headers['webhook-id'], 'the same webhook-id');
      const attempts = await eventually(
        async () => (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/attempts`, { key: org.key })).body.data,
        (a) => a.length >= 2,
        15_000,
      );
      assert.deepEqual(attempts.map((a: { attempt: number }) => a.attempt), [2, 1]);
      assert.ok(attempts.every((a: { statusCode: number; responseExcerpt: string; deliveryId: string }) => a.statusCode === 200 && a.responseExcerpt.length <= 1024 && a.deliveryId === delivery.id));
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(receiver.of('webhook.ping').length, 2, 'exactly one extra attempt');

      const other = await newOrganizationWithKey(['read', 'write', 'admin']);
      assert.equal((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { key: other.key })).status, 404);
      assert.equal((await call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { key: other.key })).status, 404);
    } finally {
      await receiver.close();
    }
  });

  it('a retry while the delivery\'s attempt is under way adds none: one request and one logged attempt', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    const server = await startTestServer(async () => {
      requests++;
      if (requests === 2) await held;
      return { status: 200, body: '{}' };
    });
    try {
      const hook = await registerWebhook(org.key, `${server.url}/hooks`, ['position.created']);
      const deliveries = () => call('GET', `/api/v1/webhooks/${hook.id}/deliveries?eventType=webhook.ping`, { key: org.key });
      const [delivery] = await eventually(async () => (await deliveries()).body.data, (d) => d[0]?.status === 'delivered', 15_000);
      const retry = () => call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { key: org.key });
      assert.equal((await retry()).status, 202);
      await eventually(async () => requests, (n) => n === 2, 15_000);
      const again = await retry();
      assert.equal(again.status, 202, again.text);
      assert.equal(again.body.data.status, 'pending', 'the attempt under way is the one asked for');
      release();
      const attempts = await eventually(
        async () => (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/attempts`, { key: org.key })).body.data,
        (a) => a.length >= 2,
        15_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(requests, 2, 'no second request while the first was under way, nor after');
      assert.equal(attempts.length, 2);
    } finally {
      release();
      await server.close();
    }
  });

  it('a retry while the endpoint loop\'s attempt is under way adds none either', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    // The ping's first attempt fails, so its retry is the endpoint loop's (5 s later); that one is held.
    const server = await startTestServer(async () => {
      requests++;
      if (requests === 1) return { status: 500, body: '{}' };
      if (requests === 2) await held;
      return { status: 200, body: '{}' };
    });
    try {
      const hook = await registerWebhook(org.key, `${server.url}/hooks`, ['position.created']);
      const [delivery] = await eventually(
        async () => (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?eventType=webhook.ping`, { key: org.key })).body.data,
        (d) => d[0]?.status === 'retrying',
        15_000,
      );
      await eventually(async () => requests, (n) => n === 2, 30_000);
      const again = await call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { key: org.key });
      assert.equal(again.status, 202, again.text);
      assert.equal(again.body.data.status, 'retrying', 'the loop\'s attempt under way is the one asked for');
      release();
      await eventually(
        async () => (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/attempts`, { key: org.key })).body.data,
        (a) => a.length >= 2,
        15_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(requests, 2, 'no request beside the loop\'s, nor after it');
    } finally {
      release();
      await server.close();
    }
  });

  it('replay redelivers exactly the window asked for; the events list pages, filters and matches what was delivered', async () => {
    const own = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(own.key, receiver.url, ['position.created']);
      for (const title of ['A', 'B', 'C', 'D']) {
        await call('POST', '/api/v1/positions', { key: own.key, body: { title } });
        await eventually(async () => receiver.of('position.created').filter((r) => r.event.data.title === title).length, (n) => n > 0, 15_000);
      }
      // Newest first, one per page, following Link: rel="next".
      const events: { id: string; type: string; createdAt: string; data: { title: string } }[] = [];
      let next: string | null = '/api/v1/events?type=position.created&limit=1';
      while (next) {
        const page: Awaited<ReturnType<typeof call<Record<string, any>>>> = await call('GET', next, { key: own.key });
        assert.equal(page.status, 200, page.text);
        events.push(...page.body.data);
        next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1]?.replace(/^https?:\/\/[^/]+/, '') ?? null;
      }
      assert.deepEqual(events.map((e) => e.data.title), ['D', 'C', 'B', 'A']);
      for (const e of events) {
        const delivered = receiver.received.find((r) => r.event.id === e.id);
        assert.deepEqual(delivered?.event, e, 'the list holds what was delivered');
      }
      const one = await call('GET', `/api/v1/events/${events[0]!.id}`, { key: own.key });
      assert.deepEqual(one.body.data, events[0]);
      assert.equal((await call('GET', `/api/v1/events/${events[0]!.id}`, { key: org.key })).status, 404, 'another organization');
      const pingsOnly = await call('GET', '/api/v1/events?type=webhook.ping', { key: own.key });
      assert.equal(pingsOnly.body.data.length, 1);
      const after = await call('GET', `/api/v1/events?createdAfter=${encodeURIComponent(events[1]!.createdAt)}`, { key: own.key });
      assert.deepEqual(after.body.data.map((e: { id: string }) => e.id), [events[0]!.id]);

      const byTitle = Object.fromEntries(events.map((e) => [e.data.title, e]));
      const before = receiver.received.length;
      const replay = await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: own.key, body: { since: byTitle['B']!.createdAt, until: byTitle['D']!.createdAt } });
      assert.equal(replay.status, 202, replay.text);
      assert.equal(replay.body.data.count, 2);
      const again = await eventually(async () => receiver.received.slice(before), (r) => r.length >= 2, 15_000);
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(receiver.received.slice(before).map((r) => r.event.data.title).sort(), ['B', 'C']);
      assert.deepEqual(again.map((r) => r.headers['webhook-id']).sort(), [byTitle['B']!.id, byTitle['C']!.id].sort(), 'original webhook-ids');
      assert.equal((await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: own.key, body: { since: byTitle['D']!.createdAt, until: byTitle['B']!.createdAt } })).status, 422);
    } finally {
      await receiver.close();
    }
  });

  it('scopes: reading the log and events needs read; managing needs admin', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await registerWebhook(org.key, receiver.url);
      const { key: read } = await newKey(org.organization.id, ['read']);
      const { key: write } = await newKey(org.organization.id, ['write']);
      for (const path of [`/api/v1/webhooks/${hook.id}/deliveries`, '/api/v1/events']) {
        assert.equal((await call('GET', path, { key: read })).status, 200, path);
        assert.equal((await call('GET', path, { key: write })).status, 403, path);
      }
      for (const [method, path, body] of [
        ['PATCH', `/api/v1/webhooks/${hook.id}`, { description: 'x' }],
        ['POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, undefined],
        ['POST', `/api/v1/webhooks/${hook.id}/test`, undefined],
        ['POST', `/api/v1/webhooks/${hook.id}/replay`, { since: new Date(0).toISOString() }],
      ] as const) {
        const res = await call(method, path, { key: read, body });
        assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
        assert.equal(res.body.error.code, 'insufficient_scope');
      }
    } finally {
      await receiver.close();
    }
  });
});
