import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The workflow-start outbox: a Temporal start is recorded in the transaction that needs it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.workflow_outbox (
      workflow_id text primary key,
      workflow_type text not null,
      args jsonb not null,
      organization_id text not null,
      kind text not null,
      task_queue text not null,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      attempts integer not null default 0,
      last_error text
    );
    create index if not exists workflow_outbox_pending on integrations.workflow_outbox (task_queue, created_at) where started_at is null;
  `.execute(db);
}
