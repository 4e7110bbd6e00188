import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';

// Return timestamptz as Date (default) but bigint/numeric as numbers where they fit.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DbOptions {
  url: string;
  /** Shown in pg_stat_activity, to tell the services' connections apart. */
  applicationName: string;
  max?: number;
  /** Session settings (GUCs) of every connection, e.g. a service's own `hireloop.*` values. */
  settings?: Record<string, string>;
}

export function createPool(options: DbOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    application_name: options.applicationName,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    ...(options.settings ? { options: Object.entries(options.settings).map(([k, v]) => `-c ${k}=${v}`).join(' ') } : {}),
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

export { sql };
export type { Kysely, Transaction, Selectable, Insertable, Updateable, Generated, ColumnType } from 'kysely';
