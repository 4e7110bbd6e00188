import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase, untilALockWaits } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { purgeExpired } from './deliveries.queries.js';

const retention = { outboxHours: 24, idempotencyHours: 24, attemptDays: 30, auditDays: 365, atsEventDays: 30 };

/**
 * Deliveries have no foreign key to their event (migration 0018): the retention purge deletes an
 * expired event's deliveries itself, including one a replay commits while the purge waits for the
 * event's row. A database of this test's own: the replay's transaction is held open by hand.
 */
describe('the retention purge of expired events', () => {
  let db: Kysely<IntegrationsDB>;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<IntegrationsDB>('event_purge', 3));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  const keepEvent = (id: string, daysAgo: number) =>
    sql`insert into integrations.events (id, organization_id, type, payload, created_at)
        values (${id}, 'org_purge', 'candidate.created', '{}'::jsonb, now() - make_interval(days => ${daysAgo}))`.execute(db);
  const queueDelivery = (trx: Kysely<IntegrationsDB>, id: string, eventId: string) =>
    sql`insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, next_attempt_at)
        values (${id}, 'org_purge', 'wh_purge', ${eventId}, 'candidate.created', 'hireloop', 'retrying', now())`.execute(trx);
  const present = async (table: 'integrations.events' | 'integrations.deliveries', ids: string[]) =>
    (await db.selectFrom(table).select('id').where('id', 'in', ids).orderBy('id').execute()).map((r) => r.id);

  it('deletes an expired event with its deliveries, and keeps a retained one with its', async () => {
    await keepEvent('evt_purge_old', 31);
    await keepEvent('evt_purge_recent', 29);
    await queueDelivery(db, 'dlv_purge_old', 'evt_purge_old');
    await queueDelivery(db, 'dlv_purge_recent', 'evt_purge_recent');
    const result = await purgeExpired(db, retention);
    assert.equal(result.events, 1);
    assert.deepEqual(await present('integrations.events', ['evt_purge_old', 'evt_purge_recent']), ['evt_purge_recent']);
    assert.deepEqual(await present('integrations.deliveries', ['dlv_purge_old', 'dlv_purge_recent']), ['dlv_purge_recent']);
  });

  it('deletes a delivery that a replay holding the event commits while the purge waits for it', async () => {
    await keepEvent('evt_purge_raced', 31);
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    // A replay's batch (replay.ts): its events read `for key share`, a delivery queued for each,
    // then held open until the purge waits for it.
    const replay = db.transaction().execute(async (trx) => {
      await sql`select id from integrations.events where id = 'evt_purge_raced' for key share`.execute(trx);
      await queueDelivery(trx, 'dlv_purge_raced', 'evt_purge_raced');
      held();
      await released;
    });
    await holding;
    const purge = purgeExpired(db, retention);
    try {
      await untilALockWaits(db, 'the purge waits for the replay that holds the event');
    } finally {
      release();
      await replay;
    }
    assert.equal((await purge).events, 1);
    assert.deepEqual(await present('integrations.events', ['evt_purge_raced']), []);
    assert.deepEqual(await present('integrations.deliveries', ['dlv_purge_raced']), [], 'no delivery is left without its event');
  });
});
