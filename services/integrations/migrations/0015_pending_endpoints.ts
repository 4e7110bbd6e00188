import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Deliveries waiting for a first attempt, by endpoint and in the order they go: the dispatcher's
// claim skips through this index one endpoint at a time, and reads only the deliveries it takes
// of each (a storm of 100 000 pending deliveries made each claim read and sort them all).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists deliveries_pending_endpoints on integrations.deliveries (task_queue, webhook_id, next_attempt_at, id)
      where status = 'pending' and lease_until is null;
  `.execute(db);
}
