import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The outbox relays claim rows with a lease instead of holding row locks across a network call.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table recruiting.outbox add column if not exists lease_until timestamptz;
    alter table recruiting.workflow_outbox add column if not exists lease_until timestamptz;
  `.execute(db);
}
