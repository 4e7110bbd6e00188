import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The SHA-256 of the request body beside each recorded Idempotency-Key scope: when the gateway's
// own record is gone (a 5xx after this write committed), the same key with another body is still
// 422 idempotency_key_reused (PRODUCT.md §6), not the first write's result. Null for records made
// before it: those are not compared.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table recruiting.idempotency_records add column if not exists fingerprint text`.execute(db);
}
