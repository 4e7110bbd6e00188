import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The Idempotency-Keys (scoped to the API key,
// named per procedure) recorded with the writes they made (webhooks, their tests, retries,
// replays and secrets, AI tasks, ATS events), so a retry after a gateway crash finds the original
// result instead of writing again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.idempotency_records (
      scope text primary key,
      resource_id text,
      created_at timestamptz not null default now()
    );
    create index if not exists integrations_idempotency_records_created_at on integrations.idempotency_records (created_at);
  `.execute(db);
}
