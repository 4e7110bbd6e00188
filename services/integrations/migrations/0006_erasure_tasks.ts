import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// `candidate_erasure` tasks (PRODUCT.md §7): one per erased candidate, so erasing twice answers
// with the same task.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table integrations.tasks add column if not exists candidate_id text;
    create unique index if not exists tasks_org_candidate_erasure on integrations.tasks (organization_id, candidate_id) where kind = 'candidate_erasure';
  `.execute(db);
}
