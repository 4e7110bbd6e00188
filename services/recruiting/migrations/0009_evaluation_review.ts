import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// A person's decision on an evaluation (PRODUCT.md §7, §10): the latest review replaces the one
// before (the audit trail keeps both).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.evaluations
      add column if not exists review_decision text check (review_decision in ('advance', 'hold', 'reject')),
      add column if not exists review_note text,
      add column if not exists reviewer_type text check (reviewer_type in ('user', 'api_key')),
      add column if not exists reviewer_id text,
      add column if not exists reviewer_name text,
      add column if not exists reviewed_at timestamptz;
  `.execute(db);
}
