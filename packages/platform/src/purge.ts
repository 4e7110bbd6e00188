import { sql, type Kysely, type RawBuilder } from 'kysely';

/** Rows deleted per statement: a purge never holds a long lock or a huge transaction. */
export const PURGE_BATCH = 1000;

export interface PurgeTable {
  schema: string;
  table: string;
  /** A column that identifies a row: its primary key, or `ctid` when that spans several columns. */
  key: string;
}

/**
 * Deletes the rows of one table that match `condition`, 1,000 at a time, until none is left; for
 * the retention purges the Temporal schedules run. Returns how many rows went.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function purgeInBatches(db: Kysely<any>, { schema, table, key }: PurgeTable, condition: RawBuilder<unknown>): Promise<number> {
  const t = sql.id(schema, table);
  const k = sql.id(key);
  let total = 0;
  for (;;) {
    const result = await sql`delete from ${t} where ${k} in (select ${k} from ${t} where ${condition} limit ${PURGE_BATCH})`.execute(db);
    const n = Number(result.numAffectedRows ?? 0);
    total += n;
    if (n < PURGE_BATCH) return total;
  }
}
