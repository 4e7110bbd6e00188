import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Invite tokens become random and are kept sealed (AES-GCM) beside their hash. Rows from before
// are sealed by the recruiting service's start-up backfill, which holds the key.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recruiting.interviews add column if not exists invite_token_sealed text`.execute(db);
}
