import pg from 'pg';

/**
 * Postgres keeps `timestamptz` in microseconds; a JavaScript Date holds milliseconds. Sync
 * clients resume from the last `updatedAt` they saw (PRODUCT.md §5, CLARIFICATIONS "Erasure and
 * sync": timestamps in microseconds), so the `updatedAt` we show must be the database's exact
 * value, or `updatedAfter=<updatedAt>` hands the last record back again.
 *
 * Every `timestamptz` is still parsed to a plain Date (pg's own parser), so nothing else changes;
 * the parser also remembers each Date's digits below the millisecond, keyed weakly by the Date,
 * and `isoMicros` writes them back out.
 */
const subMillis = new WeakMap<Date, string>();
const FRACTION = /:\d\d\.(\d+)/;

const parseDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (value: string) => Date | number | string;

export function parseTimestamptz(value: string): Date | number | string {
  const date = parseDate(value);
  if (date instanceof Date) {
    const fraction = FRACTION.exec(value)?.[1];
    if (fraction && fraction.length > 3) subMillis.set(date, fraction.slice(3, 6).padEnd(3, '0'));
  }
  return date;
}

/** ISO 8601 in UTC with six fractional digits (`…T12:00:00.123456Z`), the database's own. */
export function isoMicros(date: Date): string {
  return `${date.toISOString().slice(0, -1)}${subMillis.get(date) ?? '000'}Z`;
}
