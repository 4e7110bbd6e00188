import { sql, type Kysely, type RawBuilder } from 'kysely';
import { CallTimeoutError } from './errors.js';

/**
 * Claim-with-lease, the one way an outbox relay takes work (ARCHITECTURE.md: no lock held across a
 * network call). One autocommitted statement picks due rows (`FOR UPDATE SKIP LOCKED`, so
 * concurrent claimers never wait on each other or take the same row) and stamps them with
 * `lease_until`; the row locks end with that statement. Until the lease runs out no other relay
 * claims the rows; when the holder crashes or hangs, they become due again by themselves. The
 * holder then makes its network call holding no lock, and marks the rows done or releases them.
 */
export interface LeaseTable {
  schema: string;
  table: string;
  /** The primary-key column. */
  key: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function claimWithLease<Row>(
  db: AnyDb,
  target: LeaseTable,
  options: {
    /** Which rows are work at all (e.g. `published_at is null`). */
    pending: RawBuilder<unknown>;
    /** Order of claiming, also the order of the returned rows (e.g. `created_at, id`). */
    orderBy: RawBuilder<unknown>;
    limit: number;
    leaseMs: number;
  },
): Promise<Row[]> {
  const table = sql.id(target.schema, target.table);
  const key = sql.id(target.key);
  const { rows } = await sql<Row>`
    with claimed as (
      update ${table} set lease_until = clock_timestamp() + make_interval(secs => ${options.leaseMs / 1000})
      where ${key} in (
        select ${key} from ${table}
        where (${options.pending}) and (lease_until is null or lease_until <= clock_timestamp())
        order by ${options.orderBy} limit ${options.limit}
        for update skip locked)
      returning *)
    select * from claimed order by ${options.orderBy}`.execute(db);
  return rows;
}

/** Gives claimed rows back at once (the call failed): they are due again on the next pass. */
export async function releaseLease(db: AnyDb, target: LeaseTable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql`update ${sql.id(target.schema, target.table)} set lease_until = null where ${sql.id(target.key)} = any(${keys})`.execute(db);
}

/** Runs a network call with a deadline: `call` gets a signal to abort its request with. */
export async function withTimeout<T>(timeoutMs: number, what: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new CallTimeoutError(what, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([call(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
