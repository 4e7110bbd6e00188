import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Deliveries waiting for a first attempt by task queue and due time: no statement needs this
// order since the claim finds them by endpoint (0015, deliveries_pending_endpoints). Kept, it
// misled the claim: during a storm the table's statistics lag behind its growth, the planner
// takes both indexes as one row each, and picked this one, then read and sorted every pending
// delivery at each step of the claim's skip scan (2.9 s for one claim with 49 000 pending). It
// was also one more index to write for each delivery queued. The one statement it still served,
// the hand-over of pending deliveries whose lease expired, gets an index of its own, which holds
// only the pending deliveries under a lease (a few per endpoint in flight).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists deliveries_pending_leased on integrations.deliveries (task_queue, lease_until)
      where status = 'pending' and lease_until is not null;
    drop index if exists integrations.deliveries_due;
  `.execute(db);
}
