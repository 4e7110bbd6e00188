import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The id of the request that caused a workflow start, carried into the workflow's memo and logs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recruiting.workflow_outbox add column if not exists request_id text`.execute(db);
}
