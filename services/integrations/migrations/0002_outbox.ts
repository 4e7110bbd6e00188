import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The transactional outbox: an event is recorded in the transaction that makes the change.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.outbox (
      id text primary key,
      organization_id text not null,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      published_at timestamptz
    );
    create index if not exists outbox_unpublished on integrations.outbox (created_at, id) where published_at is null;
  `.execute(db);
}
