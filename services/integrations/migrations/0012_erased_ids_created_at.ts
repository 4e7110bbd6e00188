import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Erased people's tombstones are purged after 30 days (docs/operations.md): the hourly purge
// finds the old ones by this index instead of reading every tombstone.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists erased_ids_created_at on integrations.erased_ids (created_at)`.execute(db);
}
