import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { createDb, createPool, type DatabaseTimeouts } from './db.js';

/**
 * Runs a service's migrations in its own schema, recording them in `<schema>.kysely_migration`.
 * Migrations are plain objects passed in (never loaded from application code); Kysely's lock
 * makes concurrent starts of several instances safe, and already-applied ones are skipped.
 */
export async function migrateSchema<DB>(db: Kysely<DB>, schema: string, migrations: Record<string, Migration>): Promise<string[]> {
  // The launcher (or an administrator) creates the schema owned by the service's role, which may
  // not create schemas itself; create it only when it is missing.
  const exists = await sql<{ n: number }>`select 1 as n from pg_namespace where nspname = ${schema}`.execute(db);
  if (exists.rows.length === 0) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    db: db as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(`migration of ${schema} failed`);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * A process's migrations at start, on a connection of their own with no statement deadline: the
 * request pools bound every statement (DATABASE_STATEMENT_TIMEOUT_MS), but a migration may wait
 * for another instance's migration lock, or build an index on a large table.
 */
export async function migrateDatabase(url: string, schema: string, migrations: Record<string, Migration>, timeouts: Pick<DatabaseTimeouts, 'connectMs'>): Promise<string[]> {
  const db = createDb<unknown>(createPool({ url, applicationName: `${schema}-migrate`, max: 1, preparedStatements: false, timeouts: { connectMs: timeouts.connectMs, statementMs: null } }));
  try {
    return await migrateSchema(db, schema, migrations);
  } finally {
    await db.destroy();
  }
}
