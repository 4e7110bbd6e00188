import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists gateway.idempotency_keys (
      api_key_id text not null,
      method text not null,
      path text not null,
      idempotency_key text not null,
      fingerprint text not null,
      state text not null check (state in ('in_flight', 'completed')),
      locked_until timestamptz,
      response_status integer,
      response_headers jsonb,
      response_body text,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      primary key (api_key_id, method, path, idempotency_key)
    );
    create index if not exists idempotency_keys_created on gateway.idempotency_keys (created_at);
  `.execute(db);
}
