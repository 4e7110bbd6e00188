import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The delivery pipeline of PRODUCT.md §8: events kept 30 days, one delivery row per (event,
// endpoint) claimed by the dispatchers, and the rotation overlap of webhook secrets.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.events (
      id text primary key,
      organization_id text not null,
      type text not null,
      payload jsonb not null,
      created_at timestamptz not null
    );
    create index if not exists events_org_created on integrations.events (organization_id, created_at desc, id desc);
    create index if not exists events_org_type_created on integrations.events (organization_id, type, created_at desc, id desc);
    create index if not exists events_created on integrations.events (created_at);

    create table if not exists integrations.deliveries (
      id text primary key,
      organization_id text not null,
      webhook_id text not null references integrations.webhooks(id),
      event_id text not null references integrations.events(id) on delete cascade,
      event_type text not null,
      task_queue text not null,
      status text not null check (status in ('pending', 'delivered', 'retrying', 'failed', 'cancelled')),
      generation integer not null default 0,
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      last_status_code integer,
      last_error text,
      last_latency_ms integer,
      last_attempt_at timestamptz,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default now(),
      unique (event_id, webhook_id)
    );
    create index if not exists deliveries_due on integrations.deliveries (task_queue, next_attempt_at) where status = 'pending';
    create index if not exists deliveries_webhook_created on integrations.deliveries (webhook_id, created_at desc, id desc);
    create index if not exists deliveries_backlog on integrations.deliveries (webhook_id, status) where status in ('pending', 'retrying');

    alter table integrations.delivery_attempts add column if not exists delivery_id text;
    create index if not exists delivery_attempts_delivery on integrations.delivery_attempts (delivery_id, created_at desc, id desc);
    create index if not exists delivery_attempts_created on integrations.delivery_attempts (created_at);

    alter table integrations.webhooks add column if not exists previous_secret_sealed text;
    alter table integrations.webhooks add column if not exists previous_secret_until timestamptz;
  `.execute(db);
}
