import { sql, type Kysely } from 'kysely';
import { z } from 'zod';

/** OUTBOX_RETENTION_HOURS: how long relayed outbox rows are kept (for tracing a publish), 24 by default. */
export const OutboxRetentionHours = z.coerce.number().int().min(1).default(24);

/** Rows deleted per statement: a purge never holds a long lock or a huge transaction. */
const PURGE_BATCH = 1000;

export interface OutboxPurgeResult {
  outbox: number;
  workflowOutbox: number;
}

/**
 * The retention purge of one service's two outboxes (its own schema, its own role): event rows
 * published, and workflow starts started, more than `retentionHours` ago. Pending rows are never
 * touched, whatever their age. Deletes in bounded batches until none is left. Run by a Temporal
 * schedule through the owning service's system procedure.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function purgeRelayedOutboxes(db: Kysely<any>, schema: string, retentionHours: number): Promise<OutboxPurgeResult> {
  const cutoff = sql`now() - make_interval(hours => ${retentionHours})`;
  const outbox = await deleteInBatches(db, sql`delete from ${sql.id(schema, 'outbox')} where id in (
    select id from ${sql.id(schema, 'outbox')} where published_at < ${cutoff} limit ${PURGE_BATCH})`);
  const workflowOutbox = await deleteInBatches(db, sql`delete from ${sql.id(schema, 'workflow_outbox')} where workflow_id in (
    select workflow_id from ${sql.id(schema, 'workflow_outbox')} where started_at < ${cutoff} limit ${PURGE_BATCH})`);
  return { outbox, workflowOutbox };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function deleteInBatches(db: Kysely<any>, statement: ReturnType<typeof sql>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = Number((await statement.execute(db)).numAffectedRows ?? 0);
    total += n;
    if (n < PURGE_BATCH) return total;
  }
}
