import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// A candidate's enrollments in every flow, newest first (the console's candidate profile).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists enrollments_candidate_enrolled on recruiting.enrollments (organization_id, candidate_id, enrolled_at desc, id desc);
  `.execute(db);
}
