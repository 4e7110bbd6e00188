import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// A failed `candidate_erasure` task stays as the record of that attempt, and DELETE starts a new
// task: at most one task per candidate that is not `failed` (the one DELETE answers with).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unique index if not exists tasks_org_candidate_erasure_live on integrations.tasks (organization_id, candidate_id)
      where kind = 'candidate_erasure' and status <> 'failed';
    drop index if exists integrations.tasks_org_candidate_erasure;
    create index if not exists tasks_org_candidate_erasure_all on integrations.tasks (organization_id, candidate_id, created_at)
      where kind = 'candidate_erasure';
  `.execute(db);
}
