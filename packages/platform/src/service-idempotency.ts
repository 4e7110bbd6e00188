import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { z } from 'zod';
import { purgeInBatches } from './purge.js';

/**
 * The header on an internal call that carries the caller's Idempotency-Key, scoped to its API key
 * (CLARIFICATIONS "Idempotency that survives a gateway crash"): the owning service records it in
 * the transaction of the write, so a retry after a gateway crash finds the original result.
 */
export const IDEMPOTENCY_SCOPE_HEADER = 'x-idempotency-scope';

/**
 * The scope the gateway forwards: a SHA-256 of (API key id, method, path, Idempotency-Key), so
 * the key itself never reaches a service and two API keys never share a record.
 */
export function idempotencyScope(apiKeyId: string, method: string, path: string, idempotencyKey: string): string {
  return createHash('sha256').update(JSON.stringify([apiKeyId, method, path, idempotencyKey])).digest('hex');
}

/** The per-service table of recorded scopes; a migration of each service creates it in its own schema. */
export function idempotencyRecordsTableSql(schema: string) {
  return sql`
    create table if not exists ${sql.id(schema, 'idempotency_records')} (
      scope text primary key,
      resource_id text,
      created_at timestamptz not null default now()
    );
    create index if not exists ${sql.id(`${schema}_idempotency_records_created_at`)} on ${sql.id(schema, 'idempotency_records')} (created_at);
  `;
}

/**
 * Runs a create once per scope, in the caller's transaction. The scope is claimed first with an
 * insert under the primary key (a concurrent duplicate waits for this transaction, then sees the
 * record); the id of what `create` made is stored with it before the commit. A scope already
 * recorded returns `load(id)` of the original resource instead of creating again. Without a scope
 * (no Idempotency-Key) it is just `create()`.
 */
export async function createOnce<T extends { id: string }>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>,
  schema: string,
  scope: string | null,
  create: () => Promise<T>,
  load: (id: string) => Promise<T>,
): Promise<T> {
  if (!scope) return create();
  const table = sql.id(schema, 'idempotency_records');
  const claimed = await sql`insert into ${table} (scope) values (${scope}) on conflict do nothing`.execute(trx);
  if (Number(claimed.numAffectedRows ?? 0) === 0) {
    const { rows } = await sql<{ resource_id: string | null }>`select resource_id from ${table} where scope = ${scope}`.execute(trx);
    const id = rows[0]?.resource_id;
    if (id) return load(id);
    // Recorded without a resource (it cannot be: both are written in one transaction); create.
  }
  const created = await create();
  await sql`update ${table} set resource_id = ${created.id} where scope = ${scope}`.execute(trx);
  return created;
}

/** IDEMPOTENCY_RETENTION_HOURS: how long idempotency records are kept; at least 24 (they are replayed for 24 h). */
export const IdempotencyRetentionHours = z.coerce.number().int().min(24).default(24);

/** The retention purge of one service's idempotency records (IDEMPOTENCY_RETENTION_HOURS). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function purgeIdempotencyRecords(db: Kysely<any>, schema: string, retentionHours: number): Promise<number> {
  return purgeInBatches(db, { schema, table: 'idempotency_records', key: 'scope' }, sql`created_at < now() - make_interval(hours => ${retentionHours})`);
}
