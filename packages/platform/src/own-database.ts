import pg from 'pg';
import { sql, type Kysely } from 'kysely';
import { createDb, createPool } from './db.js';

/**
 * Test helper: a database of a test's own on the test stack's Postgres server (DATABASE_URL), for
 * a test that must not share the stack's (a re-seal touches every row; a second platform). Here,
 * not in devstack, so a service's tests can use it without a service depending on the launcher
 * (which depends on the services). `drop()` also drops the per-service roles a launcher made for
 * it: roles are per cluster, named `<database>_<service>` (devstack's database-roles.ts).
 */
export async function ownDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await admin.connect();
  const name = `${prefix}_${process.pid}`;
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  const url = new URL(process.env['DATABASE_URL']!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
        const roles = await admin.query<{ rolname: string }>(String.raw`select rolname from pg_roles where rolname like $1 escape '\'`, [`${name.replaceAll('_', '\\_')}\\_%`]);
        for (const { rolname } of roles.rows) await admin.query(`drop role if exists ${pg.escapeIdentifier(rolname)}`);
      } finally {
        await admin.end();
      }
    },
  };
}

/**
 * ownDatabase with a Kysely pool of `max` connections on it (the test migrates what it needs).
 * `close()` ends the pool, then drops the database.
 */
export async function ownKyselyDatabase<DB>(prefix: string, max = 2): Promise<{ db: Kysely<DB>; close: () => Promise<void> }> {
  const own = await ownDatabase(prefix);
  const db = createDb<DB>(createPool({ url: own.url, applicationName: `${prefix.replaceAll('_', '-')}-test`, max }));
  return {
    db,
    close: async () => {
      try {
        await db.destroy();
      } finally {
        await own.drop();
      }
    },
  };
}

/**
 * Resolves once a statement on the server waits for a lock (of `locktype`, when given): how a
 * test knows the transaction it holds open is what another waits for. Throws `message` after
 * `timeoutMs`.
 */
export async function untilALockWaits<DB>(db: Kysely<DB>, message: string, locktype?: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const waiting = sql<{ n: number }>`select count(*)::int as n from pg_locks where not granted ${locktype ? sql`and locktype = ${locktype}` : sql``}`;
  while (Number((await waiting.execute(db)).rows[0]?.n ?? 0) === 0) {
    if (Date.now() >= deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
