import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Retry workflows waiting for a place under their endpoint's concurrency cap: when an attempt to
// the endpoint ends, the oldest one is signalled (woken_at) instead of polling on a timer.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.endpoint_waiters (
      delivery_id text primary key references integrations.deliveries(id) on delete cascade,
      webhook_id text not null,
      organization_id text not null,
      generation integer not null,
      since timestamptz not null default now(),
      woken_at timestamptz
    );
    create index if not exists endpoint_waiters_queue on integrations.endpoint_waiters (webhook_id, since, delivery_id);
  `.execute(db);
}
