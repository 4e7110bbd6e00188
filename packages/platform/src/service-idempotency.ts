import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import { AppError } from './errors.js';
import { purgeInBatches } from './purge.js';

/**
 * The header on an internal call that carries the caller's Idempotency-Key, scoped to its API key
 * (CLARIFICATIONS "Idempotency that survives a gateway crash"): the owning service records it in
 * the transaction of the write, so a retry after a gateway crash finds the original result.
 */
export const IDEMPOTENCY_SCOPE_HEADER = 'x-idempotency-scope';

/**
 * The header that carries the SHA-256 of the request's body beside the scope: the service records
 * it with the scope, and a repeat of the scope with another body is 422 idempotency_key_reused,
 * even when the gateway's own record (which compares bodies first) is gone.
 */
export const IDEMPOTENCY_FINGERPRINT_HEADER = 'x-idempotency-fingerprint';

/** The fingerprint of the call being served (set by the procedure builders, trpc.ts), for runOnce. */
const callFingerprint = new AsyncLocalStorage<string>();

/** Runs `fn` with the call's body fingerprint, which runOnce records and compares. */
export function withRequestFingerprint<T>(fingerprint: string | null | undefined, fn: () => T): T {
  return fingerprint ? callFingerprint.run(fingerprint, fn) : fn();
}

const sha256 = (parts: string[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex');

/**
 * The scope the gateway forwards: a SHA-256 of (API key id, method, path, Idempotency-Key), so
 * the key itself never reaches a service and two API keys never share a record.
 */
export function idempotencyScope(apiKeyId: string, method: string, path: string, idempotencyKey: string): string {
  return sha256([apiKeyId, method, path, idempotencyKey]);
}

/**
 * The scope a procedure records: the forwarded scope named for that procedure (its tRPC path).
 * The gateway sends one scope on every internal call of a request; named per procedure, two
 * writes of one request never share a record, and a record is only ever found by the procedure
 * that made it. The service's procedure builders derive it (trpc.ts), so no procedure sees the
 * forwarded scope itself.
 */
export function procedureScope(forwarded: string, procedurePath: string): string {
  return sha256([forwarded, procedurePath]);
}

/** How a write's result is recorded with its scope, and rebuilt from the record for a repeat. */
export interface Replayable<T> {
  /** What the record keeps: an id, or a small value. Never personal data or a secret. */
  recordOf: (result: T) => string;
  /** The result for a repeat of the scope, from what the record kept. */
  replay: (recorded: string) => Promise<T>;
}

/**
 * Runs a write once per scope, in the caller's transaction (the per-service
 * `<schema>.idempotency_records`, made by a migration of each service). The scope is claimed
 * first with an insert under the primary key (a concurrent duplicate waits for this transaction,
 * then sees the record); what `replayable.recordOf` keeps of the result is stored with it before
 * the commit. A scope already recorded returns `replayable.replay(recorded)` instead of writing
 * again. A write that fails rolls its claim back with it. Without a scope (no Idempotency-Key)
 * it is just `run()`.
 */
export async function runOnce<T>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>,
  schema: string,
  scope: string | null,
  run: () => Promise<T>,
  replayable: Replayable<T>,
): Promise<T> {
  if (!scope) return run();
  const table = sql.id(schema, 'idempotency_records');
  const fingerprint = callFingerprint.getStore() ?? null;
  const claimed = await sql`insert into ${table} (scope, fingerprint) values (${scope}, ${fingerprint}) on conflict do nothing`.execute(trx);
  if (Number(claimed.numAffectedRows ?? 0) === 0) {
    const { rows } = await sql<{ resource_id: string | null; fingerprint: string | null }>`select resource_id, fingerprint from ${table} where scope = ${scope}`.execute(trx);
    // A record from before fingerprints, or a call without one, is not compared.
    if (fingerprint && rows[0]?.fingerprint && rows[0].fingerprint !== fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
    }
    const recorded = rows[0]?.resource_id;
    if (recorded != null) return replayable.replay(recorded);
    // Recorded without a result (it cannot be: both are written in one transaction); run.
  }
  const result = await run();
  await sql`update ${table} set resource_id = ${replayable.recordOf(result)} where scope = ${scope}`.execute(trx);
  return result;
}

/** runOnce for a write that makes a resource: the record keeps its id, a repeat returns `load(id)`. */
export function createOnce<T extends { id: string }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>,
  schema: string,
  scope: string | null,
  create: () => Promise<T>,
  load: (id: string) => Promise<T>,
): Promise<T> {
  return runOnce(trx, schema, scope, create, { recordOf: (created) => created.id, replay: load });
}

/** A Replayable for a small result with no personal data and no secret (a count, ids): kept as JSON. */
export function replayedAsJson<T>(): Replayable<T> {
  return { recordOf: (result) => JSON.stringify(result), replay: async (recorded) => JSON.parse(recorded) as T };
}

/** IDEMPOTENCY_RETENTION_HOURS: how long idempotency records are kept; at least 24 (they are replayed for 24 h). */
export const IdempotencyRetentionHours = z.coerce.number().int().min(24).default(24);

/** The retention purge of one service's idempotency records (IDEMPOTENCY_RETENTION_HOURS). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function purgeIdempotencyRecords(db: Kysely<any>, schema: string, retentionHours: number): Promise<number> {
  return purgeInBatches(db, { schema, table: 'idempotency_records', key: 'scope' }, sql`created_at < now() - make_interval(hours => ${retentionHours})`);
}
