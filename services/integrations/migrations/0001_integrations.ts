import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists integrations.webhooks (
      id text primary key,
      organization_id text not null,
      url text not null,
      events text[] not null,
      description text,
      status text not null check (status in ('enabled', 'disabled')),
      disabled_reason text,
      secret_sealed text not null,
      failing_since timestamptz,
      deleted_at timestamptz,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create index if not exists webhooks_org_created on integrations.webhooks (organization_id, created_at desc, id desc) where deleted_at is null;

    create table if not exists integrations.delivery_attempts (
      id text primary key,
      organization_id text not null,
      webhook_id text not null references integrations.webhooks(id),
      event_id text not null,
      event_type text not null,
      attempt integer not null,
      status_code integer,
      latency_ms integer not null,
      response_excerpt text,
      error text,
      created_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create index if not exists delivery_attempts_webhook_created on integrations.delivery_attempts (webhook_id, created_at desc, id desc);

    create table if not exists integrations.tasks (
      id text primary key,
      organization_id text not null,
      kind text not null,
      status text not null check (status in ('queued', 'running', 'succeeded', 'failed')),
      input jsonb not null,
      position_id text,
      result jsonb,
      error jsonb,
      completed_at timestamptz,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      updated_at timestamptz not null default date_trunc('milliseconds', now())
    );

    create table if not exists integrations.ats_events (
      id text primary key,
      organization_id text not null,
      source text not null,
      event_id text not null,
      type text not null,
      payload jsonb not null,
      status text not null check (status in ('accepted', 'processed', 'failed')),
      result jsonb,
      processed_at timestamptz,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      unique (organization_id, source, event_id)
    );
  `.execute(db);
}
