import { after, describe, it } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { createDb, createPool, sql } from './db.js';
import { createServiceProcedures, appErrorOf } from './trpc.js';
import { isTransientDatabaseError } from './database-errors.js';
import { expectTRPCError } from './expect-trpc-error.js';

/**
 * PRODUCT.md §3: a dependency that is busy or down is 503 service_unavailable (retry), never a 500.
 * Real Postgres errors, raised by the test stack's database.
 */
describe('transient database failures are 503 service_unavailable', () => {
  const db = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'database-errors-test', max: 2 }));
  after(() => db.destroy());
  const { router, internalProcedure, createCallerFactory } = createServiceProcedures();
  const procedures = router({
    timedOut: internalProcedure.query(() =>
      db.transaction().execute(async (trx) => {
        await sql`set local statement_timeout = 50`.execute(trx);
        await sql`select pg_sleep(2)`.execute(trx);
      }),
    ),
    serialization: internalProcedure.query(() => sql`do $$ begin raise exception 'retry me' using errcode = '40001'; end $$`.execute(db)),
    ourBug: internalProcedure.query(() => sql`select 1 / 0`.execute(db)),
  });
  const caller = createCallerFactory(procedures)({ auth: { sub: 'system', scopes: [] }, requestId: 'req_test' } as never);

  it('a statement timeout (57014) and a serialization failure (40001) answer 503', async () => {
    for (const run of [() => caller.timedOut(), () => caller.serialization()]) {
      const error = await expectTRPCError(run);
      assert.equal(error.code, 'SERVICE_UNAVAILABLE');
      assert.equal(appErrorOf(error)?.code, 'service_unavailable');
    }
  });

  it('an error in our own SQL stays a 500 with nothing of the driver in it', async () => {
    const error = await expectTRPCError(() => caller.ourBug());
    assert.equal(error.code, 'INTERNAL_SERVER_ERROR');
    assert.equal(appErrorOf(error), null);
  });

  it('knows connection failures of node-postgres', () => {
    assert.ok(isTransientDatabaseError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })));
    assert.ok(isTransientDatabaseError(new Error('timeout exceeded when trying to connect')));
    assert.ok(!isTransientDatabaseError(Object.assign(new Error('duplicate key'), { code: '23505' })));
  });
});

describe('a pool whose idle connection Postgres ends', () => {
  it('keeps the process alive and opens a new connection for the next query', async () => {
    const pool = createPool({ url: process.env['DATABASE_URL']!, applicationName: 'idle-kill-test', max: 1 });
    const db = createDb<object>(pool);
    try {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const admin = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'idle-kill-admin', max: 1 }));
      try {
        await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
      } finally {
        await admin.destroy();
      }
      // The idle client's error reaches the pool; without a listener the test process would crash here.
      await new Promise((r) => setTimeout(r, 200));
      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      assert.equal(again.rows[0]!.one, 1);
    } finally {
      await db.destroy();
    }
  });
});

describe('a connection that dies while checked out', () => {
  it('fails the transaction on it (transient), not the process, and the pool opens a new one', async () => {
    const db = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'checked-out-kill-test', max: 1 }));
    const admin = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'checked-out-kill-admin', max: 1 }));
    try {
      const error = await db
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await sql`select pg_terminate_backend(${rows[0]!.pid})`.execute(admin);
          // The close reaches the client while no statement of it runs: an 'error' event on a
          // checked-out client, which crashed the process when nothing listened.
          await new Promise((r) => setTimeout(r, 300));
          await sql`select 1`.execute(trx);
        })
        .then(() => null, (err: unknown) => err);
      assert.ok(isTransientDatabaseError(error), String(error));
      const again = await sql<{ one: number }>`select 1 as one`.execute(db);
      assert.equal(again.rows[0]!.one, 1);
    } finally {
      await admin.destroy();
      await db.destroy();
    }
  });
});

describe('bounded waits on a Postgres that does not answer (CLARIFICATIONS "Postgres paused")', () => {
  const timeouts = { connectMs: 300, statementMs: 300 };

  it('a statement past the statement timeout is cancelled by Postgres: 57014, transient', async () => {
    const db = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'statement-timeout-test', max: 1, timeouts }));
    try {
      const error = await sql`select pg_sleep(3)`.execute(db).then(() => null, (err: unknown) => err);
      assert.equal((error as { code?: string }).code, '57014');
      assert.ok(isTransientDatabaseError(error));
    } finally {
      await db.destroy();
    }
  });

  it('a server that accepts the connection and never answers: acquisition gives up, transient', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = new URL(process.env['DATABASE_URL']!);
    url.port = String((silent.address() as AddressInfo).port);
    const db = createDb<object>(createPool({ url: url.toString(), applicationName: 'connect-timeout-test', max: 1, timeouts }));
    try {
      const error = await sql`select 1`.execute(db).then(() => null, (err: unknown) => err);
      assert.ok(isTransientDatabaseError(error), String(error));
    } finally {
      await db.destroy();
      silent.close();
    }
  });

  it('a backend stopped mid-statement: the client deadline ends the wait, drops the connection, and the pool recovers', async (t) => {
    const db = createDb<object>(createPool({ url: process.env['DATABASE_URL']!, applicationName: 'stopped-backend-test', max: 1, timeouts }));
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
    const backend = rows[0]!.pid;
    try {
      process.kill(backend, 'SIGSTOP');
    } catch {
      await db.destroy();
      return t.skip('Postgres runs elsewhere (TEST_DATABASE_URL): its processes cannot be signalled');
    }
    try {
      // Postgres' own statement timeout cannot fire in a stopped process; only the client's can.
      const error = await db.transaction().execute((trx) => sql`select 1`.execute(trx)).then(() => null, (err: unknown) => err);
      assert.ok(isTransientDatabaseError(error), String(error));
    } finally {
      process.kill(backend, 'SIGCONT');
    }
    try {
      const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      assert.notEqual(again.rows[0]!.pid, backend, 'a new connection, not the one left mid-statement');
    } finally {
      await db.destroy();
    }
  });
});
