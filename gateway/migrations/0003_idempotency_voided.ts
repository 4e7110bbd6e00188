import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// Erasure voids the stored responses that name the erased person at once, in the DELETE's own
// request (issue 18 item 9): a voided record keeps its key and fingerprint, so a retry of that
// request is 404 instead of a replay of the person's data, or a second execution.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table gateway.idempotency_keys drop constraint if exists idempotency_keys_state_check;
    alter table gateway.idempotency_keys add constraint idempotency_keys_state_check check (state in ('in_flight', 'completed', 'voided'));
  `.execute(db);
}
