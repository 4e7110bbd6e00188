import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Erasure (PRODUCT.md §7): an erased candidate is 404 everywhere from the moment of the request;
// its row stays, scrubbed, so the anonymous rows of its interviews still count.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.candidates add column if not exists erased_at timestamptz;
    create index if not exists interviews_completed_with_answers on recruiting.interviews (completed_at) where answers is not null;
  `.execute(db);
}
