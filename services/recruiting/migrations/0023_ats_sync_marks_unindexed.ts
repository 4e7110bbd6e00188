import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The index of ATS sync marks by candidate (0022) served an erasure's delete of the marks, which
// was left out before it shipped (it could deadlock with an ATS update; the marks are ids and
// times only). Nothing reads the marks by candidate, and every upsert paid for the index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists recruiting.ats_sync_marks_candidate`.execute(db);
}
