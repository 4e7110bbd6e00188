import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The Idempotency-Keys (scoped to the API key)
// recorded with the writes they made, so a retry after a gateway crash finds the original.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.idempotency_records (
      scope text primary key,
      resource_id text,
      created_at timestamptz not null default now()
    );
    create index if not exists recruiting_idempotency_records_created_at on recruiting.idempotency_records (created_at);
  `.execute(db);
}
