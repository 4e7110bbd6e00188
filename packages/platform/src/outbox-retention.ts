import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { purgeInBatches } from './purge.js';

/** OUTBOX_RETENTION_HOURS: how long relayed outbox rows are kept (for tracing a publish), 24 by default. */
export const OutboxRetentionHours = z.coerce.number().int().min(1).default(24);

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
  const outbox = await purgeInBatches(db, { schema, table: 'outbox', key: 'id' }, sql`published_at < ${cutoff}`);
  const workflowOutbox = await purgeInBatches(db, { schema, table: 'workflow_outbox', key: 'workflow_id' }, sql`started_at < ${cutoff}`);
  return { outbox, workflowOutbox };
}
