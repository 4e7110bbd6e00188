import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import { AppError } from './errors.js';
import type { Key, KeyRing } from './keys.js';

/** Where a keyset page ends: lists are ordered newest first by (created_at, id). */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

/** Where an `updatedAfter` page ends: `updatedAt` as ISO 8601 with microseconds. */
export interface SyncPosition {
  updatedAt: string;
  id: string;
}

/**
 * What a cursor belongs to: one list of one organization, with the filters its pages were made
 * with. A cursor used with any other list, organization or filters is refused.
 */
export interface CursorContext {
  list: string;
  organizationId: string;
  filters: Record<string, unknown>;
}

/** An instant as the API's filters take it (`Instant`: seconds, any fraction, `Z` or an offset). */
const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * One spelling per instant: `…T06:00:00+01:00`, `…T05:00:00Z` and `…T05:00:00.000Z` are one filter
 * value (PRODUCT.md §5: a cursor's filters must *equal* those given now). UTC, the fraction
 * without trailing zeros. Any other value is itself.
 */
export function canonicalFilterValue(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = INSTANT.exec(value);
  if (!m) return value;
  const [, base, fraction = '', zone] = m as unknown as [string, string, string | undefined, string];
  const digits = fraction.padEnd(3, '0');
  const ms = Date.parse(`${base}.${digits.slice(0, 3)}${zone}`);
  if (Number.isNaN(ms)) return value;
  return `${new Date(ms).toISOString().slice(0, -1)}${digits.slice(3)}`.replace(/\.?0+$/, '') + 'Z';
}

function fingerprint({ list, organizationId, filters }: CursorContext, canonical = true): string {
  const value = (k: string) => (canonical ? canonicalFilterValue(filters[k]) : filters[k]) ?? null;
  const text = JSON.stringify([list, organizationId, Object.keys(filters).sort().map((k) => [k, value(k)])]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

/**
 * Opaque, tamper-checked cursors (PRODUCT.md §5): the position and a fingerprint of the filters
 * the page was made with, signed with HMAC-SHA256 under the current CURSOR_KEYS key:
 * `<payload>.<key id>.<signature>`. A changed cursor or changed filters → 422. Cursors from before
 * key ids (`<payload>.<signature>`) are checked against every key.
 */
export class CursorCodec {
  constructor(private readonly keys: KeyRing) {}

  private sign(key: Key, payload: string): string {
    return createHmac('sha256', key.secret).update(payload).digest('base64url').slice(0, 22);
  }

  private signedBy(key: Key, payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(key, payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  encode(position: KeysetPosition, context: CursorContext): string {
    return this.seal([position.createdAt.toISOString(), position.id], context);
  }

  decode(cursor: string, context: CursorContext): KeysetPosition {
    const [createdAt, id] = this.open(cursor, context);
    return { createdAt: new Date(createdAt), id };
  }

  /** A position in an `updatedAfter` walk: `updatedAt` keeps the database's microseconds. */
  encodeSync(position: SyncPosition, context: CursorContext): string {
    return this.seal([position.updatedAt, position.id], context);
  }

  decodeSync(cursor: string, context: CursorContext): SyncPosition {
    const [updatedAt, id] = this.open(cursor, context);
    return { updatedAt, id };
  }

  private seal(values: [string, string], context: CursorContext): string {
    const payload = Buffer.from(JSON.stringify([...values, fingerprint(context)])).toString('base64url');
    const key = this.keys.current;
    return `${payload}.${key.id}.${this.sign(key, payload)}`;
  }

  private open(cursor: string, context: CursorContext): [string, string] {
    const invalid = (message: string) => new AppError('validation_failed', message, [{ path: 'cursor', message }]);
    const parts = cursor.split('.');
    const [payload, kid, signature] = parts.length === 2 ? [parts[0], undefined, parts[1]] : parts;
    if (!payload || !signature || parts.length > 3) throw invalid('The cursor is malformed.');
    const keys = kid === undefined ? this.keys.keys : this.keys.keys.filter((k) => k.id === kid);
    if (!keys.some((key) => this.signedBy(key, payload, signature))) throw invalid('The cursor is invalid or was modified.');
    const [a, b, filterPrint] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [string, string, string];
    // A cursor made before filter values had one spelling carries the fingerprint of the values as given.
    if (filterPrint !== fingerprint(context) && filterPrint !== fingerprint(context, false)) throw invalid('This cursor belongs to another list, or its filters differ from those given now.');
    return [a, b];
  }
}

/**
 * Cuts a `limit + 1` result into a page and the cursor of the next one (null on the last page).
 */
export function toPage<Row extends { created_at: Date; id: string }>(
  rows: Row[],
  limit: number,
  codec: CursorCodec,
  context: CursorContext,
): { items: Row[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last ? codec.encode({ createdAt: last.created_at, id: last.id }, context) : null;
  return { items, nextCursor };
}

/**
 * The keyset condition "strictly after this position" in newest-first order, as one row
 * comparison so Postgres can walk a (organization_id, created_at desc, id desc) index.
 * Timestamps are stored at millisecond precision so a position round-trips exactly. A list
 * ordered by another time column (enrollments: `enrolled_at`) names it.
 */
export function olderThan(position: KeysetPosition, table?: string, column = 'created_at') {
  const created = table ? sql.ref(`${table}.${column}`) : sql.ref(column);
  const id = table ? sql.ref(`${table}.id`) : sql.ref('id');
  return sql<boolean>`(${created}, ${id}) < (${position.createdAt}, ${position.id})`;
}
