import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type IntegrationsDB } from '../db.js';
import { recordDelivered, type DeliveryWork } from './delivery-attempt.js';
import type { DeliverySettings } from './delivery-settings.js';

const settings: DeliverySettings = {
  allowLoopback: true,
  retrySchedule: [5, 300],
  taskQueue: 'hireloop',
  loopQueue: 'hireloop-deliveries',
  timeoutMs: 1000,
  leaseMs: 30_000,
  endpointConcurrency: 10,
  totalConcurrency: 10,
  breakerFailures: 5,
  backlogMax: 10_000,
  endpointsPerOrg: 50,
  loopRoundsPerRun: 100,
  deferredRate: 2000,
  deferredBurst: 20_000,
};

/**
 * The attempt log's numbers when the dispatcher's group commit records one delivery more than
 * once (an attempt of a manual retry sent beside the one in flight, both answered 2xx): each
 * attempt is counted, and each gets a number of its own past the log's last entry, an entry of an
 * attempt that was not made among them. A database of this test's own.
 */
describe('the group commit of delivered attempts', () => {
  let db: Kysely<IntegrationsDB>;
  let close: () => Promise<void>;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<IntegrationsDB>('attempt_numbers', 2));
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  it('numbers two attempts of one delivery in one batch apart, after the last entry, and counts both', async () => {
    await sql`insert into integrations.webhooks (id, organization_id, url, events, status, secret_sealed)
              values ('wh_num', 'org_num', 'https://receiver.example/hook', '{*}', 'enabled', 'sealed')`.execute(db);
    await sql`insert into integrations.events (id, organization_id, type, payload, created_at) values ('evt_num', 'org_num', 'candidate.created', '{}'::jsonb, now())`.execute(db);
    await sql`insert into integrations.deliveries (id, organization_id, webhook_id, event_id, event_type, task_queue, status, attempts, next_attempt_at)
              values ('dlv_num', 'org_num', 'wh_num', 'evt_num', 'candidate.created', 'hireloop', 'retrying', 1, now())`.execute(db);
    // The log so far: the first attempt (a 500), then an entry for an attempt that was not made.
    const entry = (id: string, attempt: number, statusCode: number | null, error: string | null) =>
      ({ id, delivery_id: 'dlv_num', organization_id: 'org_num', webhook_id: 'wh_num', event_id: 'evt_num', event_type: 'candidate.created', attempt, status_code: statusCode, latency_ms: 3, error });
    await db.insertInto('integrations.delivery_attempts').values([entry('dla_num_1', 1, 500, null), entry('dla_num_2', 2, null, 'not attempted: held past its schedule')]).execute();

    const work: DeliveryWork = {
      id: 'dlv_num', organization_id: 'org_num', webhook_id: 'wh_num', event_id: 'evt_num', event_type: 'candidate.created', generation: 0, attempts: 1, retry_step: 1,
      payload: { id: 'evt_num', type: 'candidate.created', createdAt: new Date().toISOString(), data: {} },
      url: 'https://receiver.example/hook', secret_sealed: 'sealed', previous_secret_sealed: null, previous_secret_until: null,
    };
    const answered = { status: 200, excerpt: 'ok', retryAfter: null, error: null, latencyMs: 4 };
    await recordDelivered(db, settings, [{ work, result: answered }, { work, result: answered }]);

    const numbers = (await db.selectFrom('integrations.delivery_attempts').select('attempt').where('delivery_id', '=', 'dlv_num').orderBy('attempt').execute()).map((r) => r.attempt);
    assert.deepEqual(numbers, [1, 2, 3, 4], 'numbers of their own, after the log\'s last entry');
    const delivery = await db.selectFrom('integrations.deliveries').select(['status', 'attempts']).where('id', '=', 'dlv_num').executeTakeFirstOrThrow();
    assert.deepEqual(delivery, { status: 'delivered', attempts: 3 }, 'both attempts counted');
  });
});
