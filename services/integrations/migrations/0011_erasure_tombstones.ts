import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The ids of erased people (their candidate, interviews, enrollments; ids only, no personal data):
// an event that reaches integrations after the erasure's scrub is stored redacted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.erased_ids (
      organization_id text not null,
      id text not null,
      candidate_id text not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, id)
    );
  `.execute(db);
}
