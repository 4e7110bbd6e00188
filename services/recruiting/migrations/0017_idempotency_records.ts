import type { Kysely } from 'kysely';
import { idempotencyRecordsTableSql } from '@hireloop/platform';

// Frozen in time: never edit after it has shipped. The Idempotency-Keys (scoped to the API key)
// recorded with the writes they made, so a retry after a gateway crash finds the original.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idempotencyRecordsTableSql('recruiting').execute(db);
}
