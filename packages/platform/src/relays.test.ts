import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { Client, Connection } from '@temporalio/client';
import { createDb, createPool, sql } from './db.js';
import { InternalTokenCache } from './internal-auth.js';
import { claimWithLease } from './lease.js';
import { RelayLoop } from './relay-loop.js';
import { createLogger } from './logger.js';
import { outboxTableSql, recordEvent } from './outbox.js';
import { integrationsEventSink, OutboxPublisher } from './outbox-publisher.js';
import { enqueueWorkflowStart, workflowOutboxTableSql, WorkflowStartRelay } from './workflow-outbox.js';

/**
 * The outbox relays against the test stack's Postgres and Temporal, in a schema of their own:
 * rows are claimed with a lease and no lock is held across the network call; a hung receiver
 * costs one deadline, not the relay; a repeated workflow start is a no-op after the first
 * run completed.
 */
const SCHEMA = `relay_test_${process.pid}`;
const pool = createPool({ url: process.env['DATABASE_URL']!, applicationName: 'relays-test', max: 5 });
const db = createDb<any>(pool);
const logger = createLogger('relays-test', 'silent');

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting: ${what}`);
}

before(async () => {
  await sql`create schema ${sql.id(SCHEMA)}`.execute(db);
  await outboxTableSql(SCHEMA).execute(db);
  await workflowOutboxTableSql(SCHEMA).execute(db);
  // As the services' relay_leases migrations do.
  await sql`alter table ${sql.id(SCHEMA, 'outbox')} add column lease_until timestamptz`.execute(db);
  await sql`alter table ${sql.id(SCHEMA, 'workflow_outbox')} add column lease_until timestamptz`.execute(db);
  // As the services' workflow_request_id migrations do.
  await sql`alter table ${sql.id(SCHEMA, 'workflow_outbox')} add column request_id text`.execute(db);
});

after(async () => {
  await sql`drop schema ${sql.id(SCHEMA)} cascade`.execute(db);
  await db.destroy();
});

describe('claimWithLease', () => {
  it('gives concurrent claimers disjoint rows, none while leased, and the rows again once the lease ran out', async () => {
    const org = 'org_lease';
    for (let i = 0; i < 6; i++) await recordEvent(db, SCHEMA, org, 'candidate.created', { i });
    const claim = (leaseMs: number, limit = 4) =>
      claimWithLease<{ id: string }>(db, { schema: SCHEMA, table: 'outbox', key: 'id' }, { pending: sql`organization_id = ${org}`, orderBy: sql`created_at, id`, limit, leaseMs });
    const [a, b] = await Promise.all([claim(60_000, 3), claim(60_000, 3)]);
    const ids = [...a!, ...b!].map((r) => r.id);
    assert.equal(new Set(ids).size, 6, 'six different rows');
    assert.deepEqual(await claim(60_000), [], 'nothing while leased');

    await sql`update ${sql.id(SCHEMA, 'outbox')} set lease_until = null where organization_id = ${org}`.execute(db);
    assert.equal((await claim(0, 10)).length, 6);
    assert.equal((await claim(0, 10)).length, 6, 'a lease of 0 ms has run out at once');
  });
});

describe('OutboxPublisher', () => {
  let server: Server;
  let url: string;
  let mode: 'hang' | 'ok' = 'hang';
  const seen = { requests: 0, aborted: 0, events: [] as string[] };
  /** Requests the receiver holds while it hangs, for the test to answer. */
  const held: ServerResponse[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.requests++;
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (mode === 'hang') {
          held.push(res);
          // Closed before an answer: the caller gave up.
          res.on('close', () => {
            if (!res.writableEnded) seen.aborted++;
          });
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: { id: string }[] };
        seen.events.push(...body.events.map((e) => e.id));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('holds no lock while the receiver hangs, gives up at the deadline, and publishes once it answers', async () => {
    const org = 'org_publisher';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await recordEvent(db, SCHEMA, org, 'candidate.created', { i })).id);
    // Only this test's rows: the lease test above left its own rows behind, published to nobody.
    await sql`update ${sql.id(SCHEMA, 'outbox')} set published_at = now() where organization_id <> ${org}`.execute(db);
    const sink = integrationsEventSink(url, new InternalTokenCache(`t1:${'k'.repeat(32)}`));

    // While a call hangs (its deadline far away, so it is surely still hanging when the rows are
    // looked at, however loaded the machine), the rows are leased but not locked.
    const patient = new OutboxPublisher(db, SCHEMA, sink, logger, { pollMs: 100, callTimeoutMs: 120_000 });
    await patient.start();
    try {
      await until(async () => held.length, (n) => n >= 1, 'the publisher called the receiver');
      await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: string; leased: boolean }>`select id, lease_until > now() as leased from ${sql.id(SCHEMA, 'outbox')}
          where id = any(${ids}) for update nowait`.execute(trx);
        assert.equal(rows.length, 3, 'another transaction can lock the rows at once');
        assert.ok(rows.every((r) => r.leased), 'the rows are leased to the publisher');
      });
    } finally {
      // Stopped first, so the refused call is its last; the refusal gives the rows back.
      const stopped = patient.stop();
      for (const res of held.splice(0)) res.writeHead(503).end('busy');
      await stopped;
    }
    assert.equal(
      (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(SCHEMA, 'outbox')} where id = any(${ids}) and lease_until is null and published_at is null`.execute(db)).rows[0]!.n,
      3,
      'a refused call gives the rows back',
    );

    // A receiver that never answers costs one deadline, then the rows are retried.
    const publisher = new OutboxPublisher(db, SCHEMA, sink, logger, { pollMs: 100, callTimeoutMs: 300 });
    await publisher.start();
    try {
      await until(async () => seen.aborted, (n) => n >= 1, 'the hung call was abandoned at its deadline');

      mode = 'ok';
      const published = await until(
        async () => (await sql<{ n: number }>`select count(*)::int as n from ${sql.id(SCHEMA, 'outbox')} where id = any(${ids}) and published_at is not null and lease_until is null`.execute(db)).rows[0]!.n,
        (n) => n === 3,
        'all three published',
      );
      assert.equal(published, 3);
      assert.deepEqual([...seen.events].sort(), [...ids].sort(), 'each event reached the receiver once it answered');
    } finally {
      await publisher.stop();
    }
  });
});

describe('RelayLoop', () => {
  it('listens again after its connection is terminated: a NOTIFY wakes it once more', async () => {
    const channel = `relay_test_wake_${process.pid}`;
    const counts = { started: 0 };
    // Polling once an hour: only a NOTIFY (or the loop itself, at start and after a reconnect) wakes it.
    const loop = new RelayLoop({
      name: 'wake-test',
      schema: SCHEMA,
      channel,
      timing: { pollMs: 3_600_000 },
      logger,
      pass: async () => {
        counts.started++;
        return false;
      },
    });
    const listenerBackends = async () =>
      (await sql<{ pid: number }>`select pid from pg_stat_activity where application_name = ${`${SCHEMA}-wake-test`} and query = ${`listen ${channel}`}`.execute(db)).rows.map((r) => r.pid);
    /** A NOTIFY for its schema runs one more pass (nothing else would wake it now). */
    const notifyWakesIt = async (what: string) => {
      const before = counts.started;
      await sql`select pg_notify(${channel}, ${SCHEMA})`.execute(db);
      await until(async () => counts.started, (n) => n > before, what);
    };
    await loop.start(process.env['DATABASE_URL']!);
    try {
      await until(async () => counts.started, (n) => n >= 1, 'the pass at start');
      const [first] = await until(listenerBackends, (pids) => pids.length === 1, 'the listener is connected');
      await notifyWakesIt('a NOTIFY woke the loop');

      const before = counts.started;
      await sql`select pg_terminate_backend(${first!})`.execute(db);
      await until(listenerBackends, (pids) => pids.length === 1 && pids[0] !== first, 'a new listener is connected');
      await until(async () => counts.started, (n) => n > before, 'the pass after reconnecting');
      await notifyWakesIt('a NOTIFY woke the loop after its listener was terminated');
    } finally {
      await loop.stop();
    }
  });
});

describe('WorkflowStartRelay', () => {
  it('starts a workflow once: a repeated start after it completed is a no-op that counts as done', async () => {
    const connection = await Connection.connect({ address: process.env['TEMPORAL_ADDRESS']! });
    const temporal = new Client({ connection });
    const taskQueue = process.env['TEMPORAL_TASK_QUEUE'] ?? 'hireloop';
    const relay = new WorkflowStartRelay(db, SCHEMA, temporal, [taskQueue], logger, { pollMs: 100, callTimeoutMs: 5000 });
    const workflowId = `ping:relay-test-${process.pid}-${Date.now()}`;
    const startedAt = async () =>
      (await sql<{ started_at: Date | null; attempts: number }>`select started_at, attempts from ${sql.id(SCHEMA, 'workflow_outbox')} where workflow_id = ${workflowId}`.execute(db)).rows[0]!;
    try {
      await enqueueWorkflowStart(db, SCHEMA, { workflowId, workflowType: 'ping', args: ['relay'], organizationId: 'org_relay', kind: 'ping', taskQueue });
      await relay.start();
      await until(startedAt, (r) => r.started_at !== null, 'the relay started the workflow');
      const handle = temporal.workflow.getHandle(workflowId);
      assert.equal(await handle.result(), 'pong: relay');
      const first = await handle.describe();

      // As if the relay had crashed between the start and marking the row: it starts it again.
      await sql`update ${sql.id(SCHEMA, 'workflow_outbox')} set started_at = null where workflow_id = ${workflowId}`.execute(db);
      const again = await until(startedAt, (r) => r.started_at !== null, 'the repeated start counted as done');
      assert.equal(again.attempts, 2);
      const latest = await temporal.workflow.getHandle(workflowId).describe();
      assert.equal(latest.runId, first.runId, 'no second run of the same workflow id');
      assert.equal(latest.status.name, 'COMPLETED');
    } finally {
      await relay.stop();
      await connection.close();
    }
  });
});
