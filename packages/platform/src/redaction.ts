import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';

/**
 * Redaction of stored event payloads for erasure (PRODUCT.md §7, CLARIFICATIONS "Erasure and
 * sync"): an event about an erased person keeps its type and ids, and loses everything else.
 * One definition for every copy of an event: the services' outboxes and integrations' event store
 * (which the events list, replays and pending retries read).
 */

/** `externalId` is whatever the client chose (it may be an e-mail): it goes with the rest. */
const isIdKey = (key: string) => key === 'id' || (key.endsWith('Id') && key !== 'externalId');

/** Of a value, only `id` and `…Id` string fields, in the nesting they had; null when nothing is left. */
export function idsOnly(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(idsOnly).filter((v) => v !== null);
    return items.length ? items : null;
  }
  if (value && typeof value === 'object') {
    // Entries, then fromEntries: keys are a client's (metadata), and assigning `__proto__` to a
    // `{}` would set its prototype instead of keeping the key (issue 18 item 2).
    const kept: [string, unknown][] = [];
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string' ? isIdKey(key) : v !== null && typeof v === 'object') {
        const inner = typeof v === 'string' ? v : idsOnly(v);
        if (inner !== null) kept.push([key, inner]);
      }
    }
    return kept.length ? Object.fromEntries(kept) : null;
  }
  return null;
}

export interface StoredEvent {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

/** The event with its data cut to ids, marked `redacted: true` so a receiver can tell why. */
export function redactEvent(event: StoredEvent): StoredEvent {
  const ids = idsOnly(event.data);
  return { id: event.id, type: event.type, createdAt: event.createdAt, data: { ...(ids && typeof ids === 'object' ? ids : {}), redacted: true } };
}

/**
 * A jsonb column's text names one of these ids as a JSON string value. Ids are unique random
 * strings, so this finds the rows about a person whatever shape their payload has.
 */
export function mentionsAnyId(column: string, ids: string[]): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)}::text like any(${ids.map((id) => `%"${id}"%`)}::text[])`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any> | Transaction<any>;

/**
 * Redacts the payloads of one organization's events that mention any of `ids`, in a table of
 * events (`<schema>.<table>` with `id`, `organization_id`, `payload`). Already redacted payloads
 * are left alone, so running it again changes nothing. Returns how many rows it redacted, and the
 * ids of every row that mentions one of `ids` (those redacted before too), from the same scan:
 * the payload's text is searched once.
 */
export async function redactEventPayloadsMentioning(db: AnyDb, schema: string, table: string, organizationId: string, ids: string[]): Promise<{ redacted: number; mentioning: string[] }> {
  if (ids.length === 0) return { redacted: 0, mentioning: [] };
  const rows = await sql<{ id: string; payload: StoredEvent; redacted: boolean }>`
    select id, payload, coalesce((payload -> 'data' ->> 'redacted')::boolean, false) as redacted from ${sql.id(schema, table)}
    where organization_id = ${organizationId} and ${mentionsAnyId('payload', ids)}
    for update`.execute(db);
  let redacted = 0;
  for (const row of rows.rows) {
    if (row.redacted) continue;
    await sql`update ${sql.id(schema, table)} set payload = ${JSON.stringify(redactEvent(row.payload))}::jsonb where id = ${row.id}`.execute(db);
    redacted++;
  }
  return { redacted, mentioning: rows.rows.map((r) => r.id) };
}

/** redactEventPayloadsMentioning, for a caller that needs the count only. */
export async function redactEventPayloads(db: AnyDb, schema: string, table: string, organizationId: string, ids: string[]): Promise<number> {
  return (await redactEventPayloadsMentioning(db, schema, table, organizationId, ids)).redacted;
}
