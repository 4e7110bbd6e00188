import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newKey, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { registerWebhook, startReceiver, verifyDelivery } from './webhook-receiver.js';

/**
 * PRODUCT.md §7 Webhook and Event and §8, as a client that reads only the spec tries them: the
 * edges of each management route (unknown and malformed ids, empty and odd bodies, replay windows,
 * retries of finished deliveries, tampered cursors, bad filters, Idempotency-Key). Every mismatch
 * is collected, so one run shows them all.
 */
type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;

const UNKNOWN = { webhook: 'wh_0000000000000000000000', delivery: 'dlv_0000000000000000000000', event: 'evt_0000000000000000000000' };

describe('webhooks and events as an outside client reads the spec', () => {
  let org: Org;
  let db: pg.Client;
  const mismatches: string[] = [];
  const expect = (label: string, res: ApiResponse<any>, status: number, code?: string) => {
    const got = res.body?.error?.code as string | undefined;
    if (res.status !== status || (code && got !== code)) mismatches.push(`${label}: want ${status}${code ? ` ${code}` : ''}, got ${res.status} ${res.text.slice(0, 300)}`);
    return res;
  };
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(async () => {
    await db.end();
  });


  it('every edge of the management and events routes answers as PRODUCT.md §3, §5–§8 say', async () => {
    const receiver = await startReceiver();
    const k = org.key;
    try {
      const hook = await registerWebhook(k, receiver.url);
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      const [ping] = receiver.of('webhook.ping');
      const ts = Number(ping!.headers['webhook-timestamp']);
      if (!(Math.abs(ts - Date.now() / 1000) < 60)) mismatches.push(`webhook-timestamp is not the attempt time: ${ts}`);
      verifyDelivery(hook.secret, ping!);
      if (ping!.body.includes('whsec_')) mismatches.push('the ping carries a secret');
      if (Buffer.from(hook.secret.slice('whsec_'.length), 'base64').length !== 24) mismatches.push(`secret is not base64 of 24 bytes: ${hook.secret.length} chars`);
      const fresh = await eventually(async () => (await call('GET', `/api/v1/webhooks/${hook.id}`, { key: k })).body.data, (w) => w.stats.successRate24h !== null, 15_000);
      assert.deepEqual(fresh.stats, { pending: 0, retrying: 0, oldestDueAt: null, successRate24h: 1 });
      if ('secret' in fresh) mismatches.push('GET shows the secret');

      // Unknown and malformed ids.
      for (const [method, path] of [
        ['GET', `/webhooks/${UNKNOWN.webhook}`], ['PATCH', `/webhooks/${UNKNOWN.webhook}`], ['DELETE', `/webhooks/${UNKNOWN.webhook}`],
        ['POST', `/webhooks/${UNKNOWN.webhook}/rotate-secret`], ['POST', `/webhooks/${UNKNOWN.webhook}/test`],
        ['GET', `/webhooks/${UNKNOWN.webhook}/deliveries`], ['POST', `/webhooks/${UNKNOWN.webhook}/replay`],
        ['GET', `/webhooks/${hook.id}/deliveries/${UNKNOWN.delivery}/attempts`], ['POST', `/webhooks/${hook.id}/deliveries/${UNKNOWN.delivery}/retry`],
        ['GET', `/events/${UNKNOWN.event}`],
      ] as const) {
        const body = method === 'PATCH' ? { description: 'x' } : path.endsWith('/replay') ? { since: new Date(0).toISOString() } : undefined;
        expect(`${method} ${path}`, await call(method, `/api/v1${path}`, { key: k, body }), 404, 'not_found');
      }
      for (const [method, path] of [
        ['GET', '/webhooks/garbage'], ['GET', '/webhooks/wh_x'], ['GET', `/webhooks/${hook.id}/deliveries/garbage/attempts`], ['GET', '/events/garbage'],
        ['POST', `/webhooks/${hook.id}/deliveries/evt_0000000000000000000000/retry`],
      ] as const) expect(`${method} ${path}`, await call(method, `/api/v1${path}`, { key: k }), 422, 'validation_failed');

      // PATCH bodies.
      const patch = (body: unknown) => call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: k, body });
      for (const body of [{}, { nope: 1 }, { events: [] }, { url: null }, { events: null }, { status: null }, { status: 'paused' }, { events: ['webhook.ping'] }, { events: ['*', 'candidate.created'] },
        { url: 'ftp://example.com/x' }, { url: 'https://user:pw@example.com/x' }, { url: 'https://169.254.169.254/latest' }, { description: 'x'.repeat(501) }, { id: UNKNOWN.webhook }])
        expect(`PATCH ${JSON.stringify(body).slice(0, 80)}`, await patch(body), 422, 'validation_failed');
      const same = expect('PATCH same values', await patch({ events: ['*'] }), 200);
      if (same.body?.data && 'secret' in same.body.data) mismatches.push('PATCH shows the secret');
      // A path parameter named again in the body or the query is an unknown field, not silently overruled by the path.
      expect('PATCH with the id in the body too', await patch({ id: hook.id, description: 'body id' }), 422, 'validation_failed');
      expect('replay with the id in the body too', await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: k, body: { id: hook.id, since: new Date().toISOString() } }), 422, 'validation_failed');
      expect('GET with ?id=', await call('GET', `/api/v1/webhooks/${hook.id}?id=${hook.id}`, { key: k }), 422, 'validation_failed');
      expect('GET /WEBHOOKS/{id}/ with ?id=', await call('GET', `/api/v1/WEBHOOKS/${hook.id}/?id=${hook.id}`, { key: k }), 422, 'validation_failed');
      expect('deliveries with ?id=', await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?id=${UNKNOWN.webhook}`, { key: k }), 422, 'validation_failed');
      expect('GET /events/{id} with ?id=', await call('GET', `/api/v1/events/${UNKNOWN.event}?id=${UNKNOWN.event}`, { key: k }), 422, 'validation_failed');

      // Deliveries: filters, paging, cursors.
      const deliveries = (q: string, id = hook.id) => call('GET', `/api/v1/webhooks/${id}/deliveries${q}`, { key: k });
      for (const q of ['?status=nope', '?eventType=nope', '?limit=0', '?limit=101', '?limit=1e1', '?cursor=garbage', '?since=2020-01-01T00:00:00Z', '?status=delivered&status=failed'])
        expect(`deliveries${q}`, await deliveries(q), 422, 'validation_failed');
      for (const title of ['P1', 'P2']) await call('POST', '/api/v1/positions', { key: k, body: { title } });
      await eventually(async () => (await deliveries('?status=delivered')).body.data?.length ?? 0, (n) => n >= 3, 15_000);
      const firstPage = expect('deliveries?limit=1', await deliveries('?limit=1'), 200);
      const cursor = /cursor=([^&>]+)/.exec(firstPage.headers.get('link') ?? '')?.[1];
      if (!cursor) mismatches.push('deliveries: no Link rel=next with a cursor');
      else {
        expect('deliveries next page', await deliveries(`?limit=1&cursor=${cursor}`), 200);
        expect('deliveries cursor with another filter', await deliveries(`?limit=1&cursor=${cursor}&status=delivered`), 422, 'validation_failed');
        const tampered = cursor.slice(0, -2) + (cursor.at(-2) === 'A' ? 'B' : 'A') + cursor.slice(-1);
        expect('deliveries tampered cursor', await deliveries(`?limit=1&cursor=${tampered}`), 422, 'validation_failed');
        expect('deliveries cursor on events', await call('GET', `/api/v1/events?limit=1&cursor=${cursor}`, { key: k }), 422, 'validation_failed');
        const other = await registerWebhook(k, receiver.url, ['candidate.created']);
        expect('deliveries cursor on another webhook', await deliveries(`?limit=1&cursor=${cursor}`, other.id), 422, 'validation_failed');
      }
      const delivered = (await deliveries('?status=delivered&eventType=position.created')).body.data as { id: string; nextAttemptAt: string | null; status: string; eventId: string }[];
      if (delivered.length !== 2) mismatches.push(`eventType filter: want 2 position.created deliveries, got ${delivered.length}`);
      if (delivered.some((d) => d.nextAttemptAt !== null)) mismatches.push('a delivered delivery has a nextAttemptAt');

      // Events: filters, paging, retention.
      const events = (q: string) => call('GET', `/api/v1/events${q}`, { key: k });
      for (const q of ['?type=nope', '?createdAfter=yesterday', '?createdBefore=2026-02-30T00:00:00Z', '?limit=0', '?cursor=garbage', '?status=x', '?createdAfter=2026-01-01T00:00:00'])
        expect(`events${q}`, await events(q), 422, 'validation_failed');
      expect('events far past', await events('?createdAfter=0001-01-01T00:00:00Z&createdBefore=9999-12-31T23:59:59Z'), 200);
      const eventsPage = expect('events?limit=1', await events('?limit=1&type=position.created'), 200);
      const eventsCursor = /cursor=([^&>]+)/.exec(eventsPage.headers.get('link') ?? '')?.[1];
      if (eventsCursor) expect('events cursor with another type', await events(`?limit=1&type=candidate.created&cursor=${eventsCursor}`), 422, 'validation_failed');
      else mismatches.push('events: no Link rel=next');

      // An event older than 30 days is gone from the list, the detail and replays, before the purge runs.
      const old = delivered[1]!;
      await db.query(`update integrations.events set created_at = now() - interval '31 days' where id = $1`, [old.eventId]);
      expect('expired event detail', await call('GET', `/api/v1/events/${old.eventId}`, { key: k }), 404, 'not_found');
      const listed = (await events('?limit=100')).body.data as { id: string }[];
      if (listed.some((e) => e.id === old.eventId)) mismatches.push('an expired event is listed');

      // Replay windows.
      const replay = (body: unknown, key = k) => call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key, body });
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      for (const body of [{}, { since: 'yesterday' }, { since: iso(now), until: iso(now - 1000) }, { since: iso(now), until: iso(now) }, { since: iso(now - 1000), types: [] },
        { since: iso(now - 1000), types: ['webhook.ping'] }, { since: iso(now - 1000), extra: 1 }, { since: 1700000000 }, { since: '2026-01-01T00:00:00' }])
        expect(`replay ${JSON.stringify(body).slice(0, 80)}`, await replay(body), 422, 'validation_failed');
      const future = expect('replay from the future', await replay({ since: iso(now + 3600_000) }), 202);
      if (future.body?.data?.count !== 0) mismatches.push(`replay from the future queued ${future.body?.data?.count}`);
      const before = receiver.received.length;
      const all = expect('replay since the epoch', await replay({ since: new Date(0).toISOString(), until: iso(now + 3600_000) }), 202);
      if (all.body?.data?.count !== 1) mismatches.push(`replay since the epoch: want 1 (the retained position.created; not the expired one, not pings), got ${all.body?.data?.count}`);
      await eventually(async () => receiver.received.length - before, (n) => n >= 1, 15_000);
      await new Promise((r) => setTimeout(r, 1000));
      const again = receiver.received.slice(before);
      if (again.some((r) => r.event.id === old.eventId)) mismatches.push('replay redelivered an expired event');
      for (const r of again) verifyDelivery(hook.secret, r);

      // Idempotency-Key on the POSTs.
      const idem = `idem-${Date.now()}`;
      const t1 = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: k, headers: { 'idempotency-key': idem } });
      const t2 = await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: k, headers: { 'idempotency-key': idem } });
      expect('test', t1, 202);
      if (t2.headers.get('idempotent-replayed') !== 'true' || t2.body?.data?.eventId !== t1.body?.data?.eventId) mismatches.push(`test replay: ${t2.status} ${t2.text}`);
      const r1 = await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: k, body: { since: iso(now + 7200_000) }, headers: { 'idempotency-key': idem } });
      expect('replay with a key', r1, 202);
      expect('replay key reused with another body', await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: k, body: { since: iso(now + 7300_000) }, headers: { 'idempotency-key': idem } }), 422, 'idempotency_key_reused');

      // Retry: a delivered one is attempted once more; a cancelled one (after disable and enable) too; disabled: 409.
      const retry = (id: string) => call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${id}/retry`, { key: k });
      const target = delivered[0]!;
      expect('retry a delivered delivery', await retry(target.id), 202);
      const slow = await startReceiver([], { hang: true });
      try {
        expect('PATCH url to a hanging receiver', await patch({ url: slow.url }), 200);
        await call('POST', '/api/v1/positions', { key: k, body: { title: 'P3' } });
        await eventually(async () => slow.received.length, (n) => n > 0, 15_000);
        const busy = (await call('GET', `/api/v1/webhooks/${hook.id}`, { key: k })).body.data;
        if (busy.stats.pending + busy.stats.retrying < 1 || !busy.stats.oldestDueAt) mismatches.push(`stats of an endpoint with a delivery in flight: ${JSON.stringify(busy.stats)}`);
        expect('disable', await patch({ status: 'disabled' }), 200);
        const cancelled = (await deliveries('?status=cancelled')).body.data as { id: string; nextAttemptAt: string | null }[];
        if (cancelled.length === 0) mismatches.push('disabling left no cancelled delivery');
        if (cancelled.some((d) => d.nextAttemptAt !== null)) mismatches.push('a cancelled delivery has a nextAttemptAt');
        const idle = (await call('GET', `/api/v1/webhooks/${hook.id}`, { key: k })).body.data;
        if (idle.stats.pending + idle.stats.retrying !== 0 || idle.stats.oldestDueAt !== null) mismatches.push(`stats of a disabled endpoint: ${JSON.stringify(idle.stats)}`);
        expect('retry on a disabled webhook', await retry(target.id), 409);
        expect('test on a disabled webhook', await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: k }), 409);
        expect('replay on a disabled webhook', await replay({ since: iso(now - 60_000) }), 409);
        expect('enable and move back', await patch({ status: 'enabled', url: receiver.url }), 200);
        if (cancelled[0]) {
          const beforeRetry = receiver.received.length;
          expect('retry a cancelled delivery', await retry(cancelled[0].id), 202);
          await eventually(async () => receiver.received.length - beforeRetry, (n) => n >= 1, 15_000);
        }
      } finally {
        await slow.close();
      }

      // Rotating twice within the overlap: the newest and the one before sign; the first no longer does.
      const second = (await call('POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: k })).body.data.secret as string;
      const third = expect('rotate again', await call('POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { key: k }), 200).body.data.secret as string;
      const pinged = (await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: k })).body.data.eventId as string;
      const [rotatedPing] = await eventually(async () => receiver.received.filter((r) => r.event.id === pinged), (r) => r.length > 0, 15_000);
      assert.ok(rotatedPing, 'the ping after two rotations arrived');
      const header = String(rotatedPing.headers['webhook-signature']);
      if (!/^v1,\S+ v1,\S+$/.test(header)) mismatches.push(`two signatures after two rotations: ${header}`);
      for (const s of [second, third]) verifyDelivery(s, rotatedPing);
      assert.throws(() => verifyDelivery(hook.secret, rotatedPing), 'the first secret was dropped');
      // Once the 24 h overlap is over, only the newest secret signs.
      await db.query(`update integrations.webhooks set previous_secret_until = now() - interval '1 second' where id = $1`, [hook.id]);
      const afterOverlap = (await call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: k })).body.data.eventId as string;
      const [lonePing] = await eventually(async () => receiver.received.filter((r) => r.event.id === afterOverlap), (r) => r.length > 0, 15_000);
      assert.ok(lonePing, 'the ping after the overlap arrived');
      if (!/^v1,\S+$/.test(String(lonePing.headers['webhook-signature']))) mismatches.push(`one signature after the overlap: ${String(lonePing.headers['webhook-signature'])}`);
      verifyDelivery(third, lonePing);
      assert.throws(() => verifyDelivery(second, lonePing), 'the previous secret no longer signs');

      // Scopes: read reads, admin manages; write does neither.
      const { key: read } = await newKey(org.organization.id, ['read']);
      const { key: write } = await newKey(org.organization.id, ['write']);
      for (const [method, path, key, status] of [
        ['GET', `/webhooks/${hook.id}`, write, 403], ['GET', `/webhooks/${hook.id}/deliveries/${target.id}/attempts`, write, 403], ['GET', `/events/${target.eventId}`, write, 403],
        ['GET', `/webhooks/${hook.id}/deliveries/${target.id}/attempts`, read, 200], ['GET', `/events/${target.eventId}`, read, 200], ['GET', `/webhooks/${hook.id}`, read, 200],
        ['POST', `/webhooks/${hook.id}/deliveries/${target.id}/retry`, read, 403], ['POST', `/webhooks/${hook.id}/deliveries/${target.id}/retry`, write, 403],
        ['DELETE', `/webhooks/${hook.id}`, read, 403], ['DELETE', `/webhooks/${hook.id}`, write, 403], ['PATCH', `/webhooks/${hook.id}`, write, 403],
      ] as const) expect(`${method} ${path} as ${key === read ? 'read' : 'write'}`, await call(method, `/api/v1${path}`, { key, body: method === 'PATCH' ? { description: 'x' } : undefined }), status, status === 403 ? 'insufficient_scope' : undefined);
      expect('PATCH with the id in the body, without the scope', await call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: read, body: { id: hook.id, description: 'x' } }), 403, 'insufficient_scope');

      // DELETE: twice is 404; its deliveries and their attempts are 404.
      expect('DELETE', await call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: k }), 204);
      expect('DELETE again', await call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: k }), 404, 'not_found');
      expect('deliveries of a deleted webhook', await deliveries(''), 404, 'not_found');
      expect('attempts of a deleted webhook', await call('GET', `/api/v1/webhooks/${hook.id}/deliveries/${target.id}/attempts`, { key: k }), 404, 'not_found');
      expect('retry of a deleted webhook', await retry(target.id), 404, 'not_found');
      expect('PATCH of a deleted webhook', await patch({ description: 'x' }), 404, 'not_found');
      expect('events stay after the webhook is deleted', await call('GET', `/api/v1/events/${target.eventId}`, { key: k }), 200);
    } finally {
      await receiver.close();
    }
    assert.deepEqual(mismatches, []);
  });
  it('a replay, retry or test racing a disable waits for it and queues nothing left pending', async () => {
    const receiver = await startReceiver();
    const disabler = new pg.Client({ connectionString: testEnv().databaseUrl });
    await disabler.connect();
    try {
      const hook = await registerWebhook(org.key, receiver.url);
      await eventually(async () => receiver.of('webhook.ping').length, (n) => n > 0, 15_000);
      const [ping] = (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { key: org.key })).body.data as { id: string }[];
      // A disable in flight (what PATCH status=disabled writes), holding the webhook's row until it commits.
      await disabler.query('begin');
      await disabler.query(`update integrations.webhooks set status = 'disabled', disabled_reason = 'racing' where id = $1`, [hook.id]);
      const racing = [
        call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: org.key, body: { since: new Date(0).toISOString() } }),
        call('POST', `/api/v1/webhooks/${hook.id}/deliveries/${ping!.id}/retry`, { key: org.key }),
        call('POST', `/api/v1/webhooks/${hook.id}/test`, { key: org.key }),
      ];
      const waiting = async () => Number((await db.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%webhooks%for share%'`)).rows[0].n);
      await eventually(waiting, (n) => n >= 3, 15_000);
      await disabler.query(`update integrations.deliveries set status = 'cancelled' where webhook_id = $1 and status in ('pending', 'retrying')`, [hook.id]);
      await disabler.query('commit');
      for (const res of await Promise.all(racing)) assert.equal(res.status, 409, res.text);
      const left = await db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = $1 and status in ('pending', 'retrying')`, [hook.id]);
      assert.equal(left.rows[0].n, 0, 'nothing queued behind the disable');
    } finally {
      await disabler.end();
      await receiver.close();
    }
  });

  it('a fan-out racing a disable or a delete: the change waits for it, then cancels what it queued', async () => {
    const receiver = await startReceiver();
    const ingest = new pg.Client({ connectionString: testEnv().databaseUrl });
    await ingest.connect();
    try {
      for (const change of ['disable', 'delete'] as const) {
        const hook = await registerWebhook(org.key, receiver.url);
        // What an ingest holds until it commits (fan-out.ts): the subscribed endpoint FOR KEY
        // SHARE, its event, and a delivery queued for the endpoint.
        const eventId = `evt_race_${change}_${Date.now()}`;
        const deliveryId = `dlv_race_${change}_${Date.now()}`;
        await ingest.query('begin');
        await ingest.query('select id from integrations.webhooks where id = $1 for key share', [hook.id]);
        await ingest.query(`insert into integrations.events (id, organization_id, type, payload, created_at) values ($1, $2, 'position.created', $3, now())`, [
          eventId, org.organization.id, JSON.stringify({ id: eventId, type: 'position.created', createdAt: new Date().toISOString(), data: {} }),
        ]);
        await ingest.query(`insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, next_attempt_at) values ($1, $2, $3, $4, 'position.created', 'race-test', 'pending', now())`, [
          deliveryId, org.organization.id, hook.id, eventId,
        ]);
        const changing = change === 'disable'
          ? call('PATCH', `/api/v1/webhooks/${hook.id}`, { key: org.key, body: { status: 'disabled' } })
          : call('DELETE', `/api/v1/webhooks/${hook.id}`, { key: org.key });
        const waiting = async () => Number((await db.query(`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%integrations%webhooks%for update%'`)).rows[0].n);
        await eventually(waiting, (n) => n >= 1, 15_000);
        await ingest.query('commit');
        const res = await changing;
        assert.equal(res.status, change === 'disable' ? 200 : 204, res.text);
        const delivery = await db.query('select status from integrations.deliveries where id = $1', [deliveryId]);
        assert.equal(delivery.rows[0].status, 'cancelled', `the delivery the fan-out queued during the ${change} is cancelled`);
      }
    } finally {
      await ingest.query('rollback').catch(() => undefined);
      await ingest.end();
      await receiver.close();
    }
  });
});
