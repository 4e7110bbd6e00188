import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Erasure (PRODUCT.md §7) reaches stored idempotent responses: their bodies are sealed, so the ids
// of the people a response names are kept beside it, for the erasure to find them without
// opening every body. Rows stored before this column are filled in by the gateway at start.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table gateway.idempotency_keys add column if not exists subject_ids text[];
    create index if not exists idempotency_keys_subjects on gateway.idempotency_keys using gin (subject_ids);
  `.execute(db);
}
