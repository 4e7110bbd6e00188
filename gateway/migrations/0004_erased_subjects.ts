import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The ids of people erased in the last day (a candidate's, their interviews' and enrollments'):
// a POST in flight while its person is erased stores its reply after the DELETE voided the
// others, so the store looks here and voids its own reply (PRODUCT.md §7). The ids are opaque and
// hold no personal data; the gateway's retention purge deletes them with the replies they guard.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists gateway.erased_subjects (
      id text primary key,
      created_at timestamptz not null default now()
    );
    create index if not exists erased_subjects_created on gateway.erased_subjects (created_at);
  `.execute(db);
}
