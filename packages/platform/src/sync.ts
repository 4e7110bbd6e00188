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
  const since = position ? sql<boolean>`(${updated}, ${id}) > (${position.updatedAt}::timestamptz, ${position.id})` : sql<boolean>`${updated} > ${after}::timestamptz`;
  return sql<boolean>`${since} and ${horizon}`;
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
