import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Retries per endpoint (issue 19): a failed delivery joins its endpoint's retry queue (its
// `retrying` row), which one durable workflow per endpoint drains; a circuit breaker per endpoint;
// replays queued in the background.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The endpoint's circuit breaker: its run of failed attempts, and when its next probe is due.
    alter table integrations.webhooks add column if not exists consecutive_failures integer not null default 0;
    alter table integrations.webhooks add column if not exists probes_failed integer not null default 0;
    alter table integrations.webhooks add column if not exists probe_at timestamptz;
    -- Its retry loop: when the loop looks next (null: no loop running).
    alter table integrations.webhooks add column if not exists retry_loop_at timestamptz;
    create index if not exists webhooks_retry_loop_at on integrations.webhooks (retry_loop_at) where retry_loop_at is not null;
    -- Endpoints whose retry queue changed in a committed transaction: the loop waker of the
    -- deployment (task_queue) looks at each and wakes its loop if it must look sooner.
    create table if not exists integrations.endpoint_wakes (
      webhook_id text not null,
      task_queue text not null,
      requested_at timestamptz not null default now(),
      primary key (webhook_id, task_queue)
    );
    create index if not exists endpoint_wakes_queue on integrations.endpoint_wakes (task_queue, requested_at);

    -- A delivery's place in its retry schedule (failed attempts of its generation), and whether a
    -- manual retry or a replay put it at the head of its endpoint's queue.
    alter table integrations.deliveries add column if not exists retry_step integer not null default 0;
    alter table integrations.deliveries add column if not exists queue_head boolean not null default false;
    -- Deliveries retrying under a per-delivery workflow carry their step over: a first generation's
    -- attempts are all its own; a later one made at least one (a lease lost before any made none:
    -- it keeps 0 and is retried from the start).
    update integrations.deliveries set retry_step = case when generation = 0 then attempts else least(attempts, 1) end
      where status = 'retrying' and retry_step = 0 and attempts > 0;
    create index if not exists deliveries_retry_queue on integrations.deliveries (webhook_id, queue_head desc, created_at, id) where status = 'retrying';
    create index if not exists deliveries_retry_due on integrations.deliveries (webhook_id, next_attempt_at) where status = 'retrying';
    create index if not exists deliveries_leased on integrations.deliveries (webhook_id) where lease_until is not null;

    -- POST /webhooks/{id}/replay: the window, counted when asked, queued in the background.
    create table if not exists integrations.replays (
      id text primary key,
      organization_id text not null,
      webhook_id text not null references integrations.webhooks(id),
      task_queue text not null,
      since timestamptz not null,
      until timestamptz not null,
      types text[],
      after_created_at timestamptz,
      after_id text,
      queued integer not null default 0,
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index if not exists replays_pending on integrations.replays (task_queue, created_at) where finished_at is null;
    create index if not exists replays_finished on integrations.replays (finished_at) where finished_at is not null;
  `.execute(db);
}
