import { sql } from 'kysely';
import type { CursorCodec, CursorContext, SyncPosition } from './cursor.js';

// Incremental sync (PRODUCT.md §5, docs/api.md "Incremental sync"): with `updatedAfter` a list
// walks `(updated_at, id)` ascending. `updated_at` comes from the database clock at microsecond
// precision (each service's sync migration), and a deferred check refuses a commit later than the
// commit window after the change, so a row older than the visibility lag can no longer appear
// behind a client's position.

function col(name: string, table?: string) {
  return sql.ref(table ? `${table}.${name}` : name);
}

/** `updated_at` as ISO 8601 UTC text with its microseconds, for the cursor (a JS Date keeps ms only). */
export function updatedAtMicros(table?: string) {
  return sql<string>`to_char(${col('updated_at', table)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('updated_at_us');
}

/**
 * Rows changed after the watermark `after`, or, on a later page, strictly after the cursor's
 * position, and only those changed at least `lagMs` before this statement began (every
 * transaction that could still commit a change at or before that instant has committed or been
 * refused).
 *
 * With a cursor the watermark is left out: the row comparison is then the scan's only lower
 * bound, so the `(organization_id, updated_at, id)` index scan starts at the cursor. With both,
 * Postgres (18) positions the scan on the plain `updated_at > after` and checks the row
 * comparison on every entry it passes, so page N stepped over pages 1..N-1 and a caught-up
 * client's poll over every change since its first watermark (docs/benchmarks.md, "Incremental
 * sync"). Nothing is widened: the cursor is signed and bound to this list, organization and
 * filters, `updatedAfter` among them (CursorCodec), and it is made from a row of this walk, so its
 * position is already past the watermark.
 */
export function changedSince(after: string, position: SyncPosition | undefined, lagMs: number, table?: string) {
  const updated = col('updated_at', table);
  const id = col('id', table);
  const horizon = sql<boolean>`${updated} <= statement_timestamp() - make_interval(secs => ${lagMs / 1000})`;
  const since = position ? sql<boolean>`(${updated}, ${id}) > (${position.updatedAt}::timestamptz, ${position.id})` : sql<boolean>`${updated} > ${watermarkUtc(after)}::timestamptz`;
  return sql<boolean>`${since} and ${horizon}`;
}

const FIRST = '0001-01-01T00:00:00.000000Z';
const LAST = '9999-12-31T23:59:59.999999Z';

/**
 * The watermark (an RFC 3339 instant, `Instant` of packages/contracts) as UTC text with its
 * microseconds, which Postgres reads whatever offset the client wrote: Postgres itself refuses
 * offsets beyond ±15:59 ("time zone displacement out of range", a 500 found by schemathesis) and
 * the year 0000, and a JS Date would drop the microseconds. Instants before the year 1 or after
 * 9999 are clamped to them; no row changed then, so the walk is the same.
 */
function watermarkUtc(after: string): string {
  const parts = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i.exec(after);
  const seconds = parts ? new Date(`${parts[1]}${parts[3]!.toUpperCase()}`) : new Date(Number.NaN);
  if (!parts || Number.isNaN(seconds.getTime())) throw new TypeError('updatedAfter is not an RFC 3339 instant');
  const year = seconds.getUTCFullYear();
  if (year < 1) return FIRST;
  if (year > 9999) return LAST;
  return `${seconds.toISOString().slice(0, 19)}.${(parts[2] ?? '').padEnd(6, '0').slice(0, 6)}Z`;
}

/**
 * Cuts a `limit + 1` result of a sync walk into a page. A page with items always has a next
 * cursor (after its last item), also the last one: the client keeps it and resumes from there
 * next time; an empty page has none, so the client keeps the URL it has.
 */
export function toSyncPage<Row extends { updated_at_us: string; id: string }>(rows: Row[], limit: number, codec: CursorCodec, context: CursorContext) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: last ? codec.encodeSync({ updatedAt: last.updated_at_us, id: last.id }, context) : null };
}
