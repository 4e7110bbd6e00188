import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createLogger, createPool, migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownDatabase, untilALockWaits } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { webhookStats } from '../webhooks/webhooks.queries.js';
import { cancelEndpointDeliveries } from './cancel.js';
import { DeferredFanOut, writeDeferred } from './deferred-fan-out.js';
import { ingestEvents } from './fan-out.js';

const settings = { taskQueue: 'hireloop', breakerFailures: 5, leaseMs: 30_000 };
const ORG = 'org_deferred';

/**
 * Deliveries to failing endpoints are deferred by the fan-out and written by the delivery lane's
 * writer at a bounded rate (deferred-fan-out.ts): in the fan-out's order, with its time, retrying,
 * and cancelled for an endpoint disabled meanwhile. A database of this test's own.
 */
describe('the fan-out to failing endpoints, deferred', () => {
  let db: Kysely<IntegrationsDB>;
  let url: string;
  let drop: () => Promise<void>;
  before(async () => {
    const own = await ownDatabase('deferred_fan_out');
    url = own.url;
    drop = own.drop;
    db = createDb<IntegrationsDB>(createPool({ url, applicationName: 'deferred-fan-out-test', max: 4 }));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await db.destroy();
    await drop();
  });
  beforeEach(async () => {
    for (const table of ['deliveries', 'deferred_fan_out', 'endpoint_wakes', 'events', 'webhooks']) await sql`delete from ${sql.table(`integrations.${table}`)}`.execute(db);
  });

  const endpoint = (id: string, failures: number, status: 'enabled' | 'disabled' = 'enabled') =>
    sql`insert into integrations.webhooks (id, organization_id, url, events, status, secret_sealed, consecutive_failures, failing_since)
        values (${id}, ${ORG}, 'https://example.com/hook', '{*}', ${status}, 'sealed', ${failures}, ${failures > 0 ? sql`now()` : null})`.execute(db);
  const publish = (n: number, from = 0) =>
    db.transaction().execute((trx) =>
      ingestEvents(trx, settings, Array.from({ length: n }, (_, i) => ({ id: `evt_deferred_${from + i}`, type: 'candidate.created', createdAt: new Date().toISOString(), data: { n: from + i }, organizationId: ORG }))),
    );
  const deliveries = async () =>
    (await db.selectFrom('integrations.deliveries').select(['webhook_id', 'event_id', 'status', 'next_attempt_at', 'created_at']).orderBy('event_id').orderBy('webhook_id').execute());

  it('writes a healthy endpoint\'s delivery at once, and defers a failing one\'s, which stats count as retrying', async () => {
    await endpoint('wh_healthy', 0);
    await endpoint('wh_failing', 5);
    assert.equal(await publish(1), 2, 'both deliveries are queued');
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status]), [['wh_healthy', 'pending']]);
    const stats = await webhookStats(db, settings, await db.selectFrom('integrations.webhooks').selectAll().orderBy('id').execute());
    assert.equal(stats.get('wh_failing')?.retrying, 1, 'the deferred delivery counts as a retry');
    assert.ok(stats.get('wh_failing')?.oldestDueAt, 'with its due time');
    assert.equal(stats.get('wh_healthy')?.pending, 1);

    const deferredAt = (await db.selectFrom('integrations.deferred_fan_out').select('created_at').executeTakeFirstOrThrow()).created_at;
    const result = await db.transaction().execute((trx) => writeDeferred(trx, settings, 100));
    assert.deepEqual(result, { written: 1, more: false });
    const failing = (await deliveries()).find((d) => d.webhook_id === 'wh_failing');
    assert.equal(failing?.status, 'retrying');
    assert.equal(failing?.created_at.getTime(), deferredAt.getTime(), 'created at the fan-out\'s time');
    assert.equal(failing?.next_attempt_at?.getTime(), deferredAt.getTime(), 'due from the fan-out\'s time');
    assert.equal(Number((await sql<{ n: number }>`select count(*)::int as n from integrations.endpoint_wakes where webhook_id = 'wh_failing'`.execute(db)).rows[0]!.n), 1, 'its loop is asked to look');
    assert.equal((await db.selectFrom('integrations.deferred_fan_out').select('event_id').execute()).length, 0);
  });

  it('defers a slow endpoint\'s delivery (an attempt in flight for over 1 s), and writes it pending', async () => {
    await endpoint('wh_slow', 0);
    await endpoint('wh_busy', 0);
    // An attempt to each in flight: wh_slow's leased 3 s ago, wh_busy's just now (leases of 30 s).
    await sql`insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, next_attempt_at, lease_until)
              values ('dlv_slow', ${ORG}, 'wh_slow', 'evt_before', 'candidate.created', 'hireloop', 'pending', now(), now() + interval '27 seconds'),
                     ('dlv_busy', ${ORG}, 'wh_busy', 'evt_before', 'candidate.created', 'hireloop', 'pending', now(), now() + interval '30 seconds')`.execute(db);
    assert.equal(await publish(1), 2);
    const now = async () => (await deliveries()).filter((d) => d.event_id !== 'evt_before').map((d) => [d.webhook_id, d.status]);
    assert.deepEqual(await now(), [['wh_busy', 'pending']], 'the busy endpoint\'s is written at once, the slow one\'s deferred');
    await db.transaction().execute((trx) => writeDeferred(trx, settings, 100));
    assert.deepEqual(await now(), [['wh_busy', 'pending'], ['wh_slow', 'pending']], 'written as a first attempt: the endpoint is not failing');
  });

  it('defers the delivery of an endpoint whose last attempt failed (not yet failing), and writes it pending', async () => {
    await endpoint('wh_once', 1);
    await endpoint('wh_fine', 0);
    assert.equal(await publish(1), 2);
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status]), [['wh_fine', 'pending']]);
    const stats = await webhookStats(db, settings, await db.selectFrom('integrations.webhooks').selectAll().where('id', '=', 'wh_once').execute());
    assert.deepEqual([stats.get('wh_once')?.pending, stats.get('wh_once')?.retrying], [1, 0], 'counted as the first attempt it will be');
    await db.transaction().execute((trx) => writeDeferred(trx, settings, 100));
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status]), [['wh_fine', 'pending'], ['wh_once', 'pending']]);
  });

  it('writes the oldest events first, within the budget (at least one event\'s deliveries)', async () => {
    await endpoint('wh_a', 5);
    await endpoint('wh_b', 5);
    await publish(2, 0);
    await publish(1, 2);
    const first = await db.transaction().execute((trx) => writeDeferred(trx, settings, 3));
    assert.deepEqual(first, { written: 2, more: true });
    assert.deepEqual([...new Set((await deliveries()).map((d) => d.event_id))], ['evt_deferred_0']);
    const tiny = await db.transaction().execute((trx) => writeDeferred(trx, settings, 1));
    assert.deepEqual(tiny, { written: 2, more: true }, 'a budget below one event still writes that event');
    assert.deepEqual([...new Set((await deliveries()).map((d) => d.event_id))], ['evt_deferred_0', 'evt_deferred_1']);
    assert.deepEqual(await db.transaction().execute((trx) => writeDeferred(trx, settings, 100)), { written: 2, more: false });
    assert.equal((await deliveries()).length, 6);
  });

  it('serves the organizations in turn: one organization\'s backlog does not hold up another\'s', async () => {
    await endpoint('wh_storm', 5);
    await sql`insert into integrations.webhooks (id, organization_id, url, events, status, secret_sealed, consecutive_failures, failing_since)
              values ('wh_other', 'org_other', 'https://example.com/hook', '{*}', 'enabled', 'sealed', 5, now())`.execute(db);
    await publish(5);
    await db.transaction().execute((trx) =>
      ingestEvents(trx, settings, [{ id: 'evt_other', type: 'candidate.created', createdAt: new Date().toISOString(), data: {}, organizationId: 'org_other' }]));
    assert.deepEqual(await db.transaction().execute((trx) => writeDeferred(trx, settings, 2)), { written: 2, more: true });
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.event_id]), [['wh_storm', 'evt_deferred_0'], ['wh_other', 'evt_other']]);
  });

  it('writes the deliveries of an endpoint disabled meanwhile cancelled, and a disable cancels those still deferred at once', async () => {
    await endpoint('wh_later', 5);
    await endpoint('wh_now', 5);
    await publish(2);
    await sql`update integrations.webhooks set status = 'disabled' where id = 'wh_later'`.execute(db);
    await db.transaction().execute((trx) => cancelEndpointDeliveries(trx, 'wh_now'));
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status]), [['wh_now', 'cancelled'], ['wh_now', 'cancelled']], 'the disable wrote its deferred deliveries cancelled');
    const left = await db.selectFrom('integrations.deferred_fan_out').select('webhook_ids').execute();
    assert.deepEqual(left.map((r) => r.webhook_ids), [['wh_later'], ['wh_later']]);
    await db.transaction().execute((trx) => writeDeferred(trx, settings, 100));
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status, d.next_attempt_at]), [
      ['wh_later', 'cancelled', null], ['wh_now', 'cancelled', null], ['wh_later', 'cancelled', null], ['wh_now', 'cancelled', null],
    ]);
  });

  it('writes retrying, in its queue\'s order, for an endpoint that recovered while retries were still queued', async () => {
    await endpoint('wh_back', 5);
    await publish(2);
    await db.transaction().execute((trx) => writeDeferred(trx, settings, 1));
    await sql`update integrations.webhooks set consecutive_failures = 0, failing_since = null where id = 'wh_back'`.execute(db);
    await db.transaction().execute((trx) => writeDeferred(trx, settings, 100));
    assert.deepEqual((await deliveries()).map((d) => [d.event_id, d.status]), [['evt_deferred_0', 'retrying'], ['evt_deferred_1', 'retrying']],
      'behind the queued retry, not a first attempt ahead of it');
  });

  it('a disable racing the writer cancels what the writer commits meanwhile', async () => {
    await endpoint('wh_race', 5);
    await publish(1);
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const writer = db.transaction().execute(async (trx) => {
      await writeDeferred(trx, settings, 100);
      held();
      await released;
    });
    await holding;
    const disable = db.transaction().execute(async (trx) => {
      await cancelEndpointDeliveries(trx, 'wh_race');
      await sql`update integrations.webhooks set status = 'disabled' where id = 'wh_race'`.execute(trx);
    });
    try {
      await untilALockWaits(db, 'the disable waits for the writer\'s deferred row');
    } finally {
      release();
      await writer;
    }
    await disable;
    assert.deepEqual((await deliveries()).map((d) => [d.webhook_id, d.status]), [['wh_race', 'cancelled']]);
  });

  it('the writer, woken by the fan-out\'s commit, writes every deferred delivery once', async () => {
    for (let i = 0; i < 5; i++) await endpoint(`wh_w${i}`, 5);
    const writer = new DeferredFanOut(db, { ...settings, deferredRate: 200, deferredBurst: 20 }, createLogger('deferred-fan-out-test', 'silent'), 60_000);
    await writer.start(url);
    try {
      await publish(40);
      for (let i = 0; i < 200 && (await deliveries()).length < 200; i++) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await writer.stop();
    }
    const rows = await deliveries();
    assert.equal(rows.length, 200, 'every (event, endpoint) pair, once');
    assert.ok(rows.every((d) => d.status === 'retrying'));
    assert.equal((await db.selectFrom('integrations.deferred_fan_out').select('event_id').execute()).length, 0);
  });
});
