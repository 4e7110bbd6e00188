import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The deliveries of a fan-out to endpoints that were `failing` (their circuit breaker open), not
// yet written: one row per event, with the endpoints. They skip the first attempt anyway, so a
// writer in the delivery lane writes them into the endpoints' retry queues at a bounded rate (a
// storm of dead endpoints wrote 200 000 delivery rows as fast as events came, taking a core of
// Postgres from everything else). Ids and types only, no payload.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.deferred_fan_out (
      event_id text primary key,
      organization_id text not null,
      event_type text not null,
      task_queue text not null,
      webhook_ids text[] not null,
      created_at timestamptz not null
    );
    create index if not exists deferred_fan_out_by_organization on integrations.deferred_fan_out (task_queue, organization_id, created_at, event_id);
  `.execute(db);
}
