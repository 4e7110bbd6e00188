import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createPool, sql } from './db.js';
import { outboxTableSql } from './outbox.js';
import { purgeRelayedOutboxes } from './outbox-retention.js';
import { workflowOutboxTableSql } from './workflow-outbox.js';

/**
 * The outbox retention purge against the test stack's Postgres, in a schema of its own: it deletes
 * exactly the rows relayed before the retention and keeps pending rows, however old.
 */
const SCHEMA = `outbox_retention_test_${process.pid}`;
const pool = createPool({ url: process.env['DATABASE_URL']!, applicationName: 'outbox-retention-test', max: 2 });
const db = createDb<any>(pool);
const outbox = sql.id(SCHEMA, 'outbox');
const workflowOutbox = sql.id(SCHEMA, 'workflow_outbox');

before(async () => {
  await sql`create schema ${sql.id(SCHEMA)}`.execute(db);
  await outboxTableSql(SCHEMA).execute(db);
  await workflowOutboxTableSql(SCHEMA).execute(db);
});

after(async () => {
  await sql`drop schema ${sql.id(SCHEMA)} cascade`.execute(db);
  await db.destroy();
});

const ids = async (table: ReturnType<typeof sql.id>, key: string) =>
  (await sql<{ id: string }>`select ${sql.id(key)} as id from ${table} order by 1`.execute(db)).rows.map((r) => r.id);

describe('purgeRelayedOutboxes', () => {
  it('deletes the rows relayed before the retention, in batches, and keeps recent and pending ones', async () => {
    // 1,500 old relayed events: more than one batch.
    await sql`insert into ${outbox} (id, organization_id, type, payload, created_at, published_at)
              select 'evt_old_' || lpad(n::text, 4, '0'), 'org_r', 'candidate.created', '{}', now() - interval '3 days', now() - interval '25 hours'
              from generate_series(1, 1500) n`.execute(db);
    await sql`insert into ${outbox} (id, organization_id, type, payload, created_at, published_at) values
              ('evt_recent', 'org_r', 'candidate.created', '{}', now() - interval '3 days', now() - interval '23 hours'),
              ('evt_pending', 'org_r', 'candidate.created', '{}', now() - interval '40 days', null)`.execute(db);
    await sql`insert into ${workflowOutbox} (workflow_id, workflow_type, args, organization_id, kind, task_queue, created_at, started_at) values
              ('wf_old', 'ping', '[]', 'org_r', 'test', 'q', now() - interval '3 days', now() - interval '25 hours'),
              ('wf_recent', 'ping', '[]', 'org_r', 'test', 'q', now() - interval '3 days', now() - interval '23 hours'),
              ('wf_pending', 'ping', '[]', 'org_r', 'test', 'q', now() - interval '40 days', null)`.execute(db);

    assert.deepEqual(await purgeRelayedOutboxes(db, SCHEMA, 24), { outbox: 1500, workflowOutbox: 1 });
    assert.deepEqual(await ids(outbox, 'id'), ['evt_pending', 'evt_recent']);
    assert.deepEqual(await ids(workflowOutbox, 'workflow_id'), ['wf_pending', 'wf_recent']);

    assert.deepEqual(await purgeRelayedOutboxes(db, SCHEMA, 22), { outbox: 1, workflowOutbox: 1 }, 'the retention is a setting');
    assert.deepEqual(await ids(outbox, 'id'), ['evt_pending']);
  });
});
