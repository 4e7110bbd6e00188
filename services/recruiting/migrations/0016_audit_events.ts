import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The audit trail of this service's writes (PRODUCT.md §7), one row per write, written in the
// write's transaction. Ids only: the actor, the resource, the request; the client's /24 or /48.
// Pages order by (created_at, id) with ids in byte order (collate "C"), so that the lists of
// the three services merge into one order.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.audit_events (
      id text primary key,
      organization_id text not null,
      actor_type text not null check (actor_type in ('api_key', 'user', 'system')),
      actor_id text not null,
      action text not null,
      resource_type text not null,
      resource_id text not null,
      request_id text,
      ip_prefix text,
      created_at timestamptz not null default date_trunc('milliseconds', now())
    );
    create index if not exists audit_events_page on recruiting.audit_events (organization_id, created_at desc, id collate "C" desc);
    create index if not exists audit_events_resource on recruiting.audit_events (organization_id, resource_id, created_at desc, id collate "C" desc);
    create index if not exists audit_events_actor on recruiting.audit_events (organization_id, actor_id, created_at desc, id collate "C" desc);
    create index if not exists audit_events_age on recruiting.audit_events (created_at);
  `.execute(db);
}
