import type { Kysely } from 'kysely';
import { idempotencyRecordsTableSql } from '@hireloop/platform';

// Frozen in time: never edit after it has shipped. The Idempotency-Keys (scoped to the API key,
// named per procedure) recorded with the writes they made (webhooks, their tests, retries,
// replays and secrets, AI tasks, ATS events), so a retry after a gateway crash finds the original
// result instead of writing again.
export async function up(db: Kysely<unknown>): Promise<void> {
  await idempotencyRecordsTableSql('integrations').execute(db);
}
