import { AppError, newId, generateApiKey, hashApiKey, apiKeyDisplayPrefix, inTransaction, olderThan, recordAudit, sql, type CursorCodec, toPage } from '@hireloop/platform';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, ID_PREFIXES, type ApiKey, type CreatedApiKey, type CreateApiKeyInput, type Scope } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type ApiKeysTable, type Db } from '../db.js';

export function toApiKey(row: Selectable<ApiKeysTable>): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as Scope[],
    rateLimitPerMinute: row.rate_limit_per_minute,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

export async function createApiKey(db: Db, organizationId: string, input: CreateApiKeyInput, createdBy: string | null): Promise<CreatedApiKey> {
  const key = generateApiKey();
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('identity.api_keys')
      .values({
        id: newId(ID_PREFIXES.apiKey),
        organization_id: organizationId,
        name: input.name,
        key_hash: hashApiKey(key),
        prefix: apiKeyDisplayPrefix(key),
        scopes: input.scopes,
        rate_limit_per_minute: input.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
        created_by: createdBy,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, SCHEMA, organizationId, 'api_key.created', { type: 'api_key', id: row.id });
    return { ...toApiKey(row), key };
  });
}

/** Newest first; `activeOnly` leaves revoked keys out (the console's filter). A cursor belongs to its filter. */
export async function listApiKeys(db: Db, codec: CursorCodec, organizationId: string, limit: number, cursor?: string, activeOnly = false) {
  const context = { list: 'api_keys', organizationId, filters: activeOnly ? { activeOnly: true } : {} };
  let query = db.selectFrom('identity.api_keys').selectAll().where('organization_id', '=', organizationId);
  if (activeOnly) query = query.where('revoked_at', 'is', null);
  if (cursor) {
    const at = codec.decode(cursor, context);
    query = query.where(olderThan(at));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  return { items: page.items.map(toApiKey), nextCursor: page.nextCursor };
}

/** Revokes at once: the next authentication of this key fails. Revoking twice keeps the first time. */
export async function revokeApiKey(db: Db, id: string, organizationId: string | null): Promise<ApiKey> {
  return inTransaction(db, async (trx) => {
    let query = trx
      .updateTable('identity.api_keys')
      .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
      .where('id', '=', id);
    if (organizationId) query = query.where('organization_id', '=', organizationId);
    const row = await query.returningAll().executeTakeFirst();
    if (!row) throw new AppError('not_found', `No API key ${id}.`);
    await recordAudit(trx, SCHEMA, row.organization_id, 'api_key.revoked', { type: 'api_key', id: row.id });
    return toApiKey(row);
  });
}
