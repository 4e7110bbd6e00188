import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// A delivery row's two foreign keys (to its endpoint and to its event) cost a lookup and a row
// lock on the parent for every row a fan-out writes: 100 events to 100 endpoints is 20 000 of
// them in one transaction. Measured on a copy of this table, 200 000 rows took 73 µs each with
// both keys and 46–51 µs without. The storm of issue 19 writes 200 000 such rows while
// evaluations and erasures wait for the same Postgres. Their guarantees are kept by the code
// that writes the rows:
// - an endpoint is never deleted, only marked deleted (`deleted_at`), so its id stays valid;
// - the fan-out keeps its event in the same transaction as the deliveries;
// - a replay reads its events `for key share`, as the key did, and the retention purge deletes an
//   expired event's deliveries itself (what `on delete cascade` did), in the same transaction.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table integrations.deliveries drop constraint if exists deliveries_webhook_id_fkey;
    alter table integrations.deliveries drop constraint if exists deliveries_event_id_fkey;
  `.execute(db);
}
