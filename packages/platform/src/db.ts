import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { parseTimestamptz } from './microseconds.js';
import { isStalePreparedStatement, preparingQuery } from './prepared-statements.js';

// Return timestamptz as Date (default, its microseconds kept for isoMicros) but bigint/numeric as
// numbers where they fit.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, parseTimestamptz);

export interface DbOptions {
  url: string;
  /** Shown in pg_stat_activity, to tell the services' connections apart. */
  applicationName: string;
  max?: number;
  /** Session settings (GUCs) of every connection, e.g. a service's own `hireloop.*` values. */
  settings?: Record<string, string>;
  /** Bounded waits (CLARIFICATIONS "Postgres paused"); both 5 s when not given. */
  timeouts?: DatabaseTimeouts;
  /** Statements with parameters prepared once per connection (prepared-statements.ts); on unless false. */
  preparedStatements?: boolean;
}

/** A connection is replaced after this long, which also drops the statements it prepared. */
const CONNECTION_LIFETIME_SECONDS = 15 * 60;

/** How long a caller waits on Postgres before the request fails (503) instead of hanging. */
export interface DatabaseTimeouts {
  /** Acquiring a connection: a free one from the pool, or a new one opened and authenticated. */
  connectMs: number;
  /**
   * One statement: Postgres cancels it past this (57014); the client gives up soon after. `null`
   * for no deadline: migrations, which may wait for another instance's migration lock or build an
   * index on a large table.
   */
  statementMs: number | null;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, statementMs: 5_000 };

/**
 * The client's own deadline sits this far past the server's statement timeout: a live server
 * answers first (57014, the connection stays usable); a paused one never answers, and then the
 * client's deadline is what bounds the wait.
 */
const CLIENT_GRACE_MS = 1_000;
const QUERY_READ_TIMEOUT = 'Query read timeout';

export function createPool(options: DbOptions): pg.Pool {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const pool = new pg.Pool({
    connectionString: options.url,
    application_name: options.applicationName,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    maxLifetimeSeconds: CONNECTION_LIFETIME_SECONDS,
    connectionTimeoutMillis: timeouts.connectMs,
    ...(timeouts.statementMs !== null ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + CLIENT_GRACE_MS } : {}),
    ...(options.settings ? { options: Object.entries(options.settings).map(([k, v]) => `-c ${k}=${v}`).join(' ') } : {}),
  });
  // node-postgres answers its client-side deadline but keeps the connection, with the statement
  // still in flight: the next statement on it (a transaction's rollback, the next request) would
  // queue behind that one and wait a second deadline. Ending the client closes its socket at once
  // (the server rolls back an open transaction when it sees that), a rollback on it fails at once,
  // and the pool drops it on release.
  pool.on('connect', (client) => {
    // A checked-out client whose connection dies (Postgres stopped, its backend terminated) emits
    // 'error' with no listener of the pool's on it, which would crash the process; the statement
    // running on it fails on its own, and the pool drops the client when it is released.
    client.on('error', () => undefined);
    const bound = client.query.bind(client) as (...args: unknown[]) => unknown;
    const query = options.preparedStatements === false ? bound : preparingQuery(bound);
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((err: unknown) => {
          if ((err instanceof Error && err.message === QUERY_READ_TIMEOUT) || isStalePreparedStatement(err)) void client.end().catch(() => undefined);
        });
      }
      return result;
    };
  });
  // An idle connection that Postgres ends (a restart, a failover, a fast shutdown) is emitted here.
  // Unheard, it would crash the process; the pool has already dropped that connection, and the
  // next query opens a new one, so the service recovers without a restart.
  pool.on('error', () => undefined);
  return pool;
}

export function createDb<DB>(pool: pg.Pool): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}

/** Readiness probe: one round trip. */
export async function pingDb<DB>(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}

/**
 * Runs `work` in a transaction: the caller's, when `db` already is one (a write composed into a
 * larger one), else a new one. For writes that must commit together with their audit row.
 */
export function inTransaction<DB, T>(db: Kysely<DB> | Transaction<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Transaction<DB>) : db.transaction().execute(work);
}

export { sql };
export type { Kysely, Transaction, Selectable, Insertable, Updateable, Generated, ColumnType } from 'kysely';
