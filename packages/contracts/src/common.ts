import { z } from 'zod';

/**
 * U+0000 (Postgres cannot store it) or a UTF-16 surrogate without its partner (no encoding can
 * carry it). With the `u` flag a well-formed pair is one code point and does not match.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this refuses
const ILL_FORMED = /[\u0000\uD800-\uDFFF]/u;
export const ILL_FORMED_MESSAGE = 'must not contain U+0000 or a lone surrogate';

/** Adds the well-formedness rule to a string schema (e-mail, URL…): 422 with the field in `details`. */
export function wellFormed<T extends z.ZodType<string>>(schema: T): T {
  return schema.refine((s) => !ILL_FORMED.test(s), ILL_FORMED_MESSAGE);
}

/**
 * The string type of every public input, in a body, a query or a path (PRODUCT.md §3): refuses
 * U+0000 and lone surrogates. Chain limits as on `z.string()`: `text().trim().min(1).max(200)`.
 */
export function text() {
  return wellFormed(z.string());
}

/**
 * The first `max` characters of `text`, counted as the schemas count them (code points): a cut
 * never splits a surrogate pair (`slice` counts UTF-16 units, and half an emoji is stored as
 * U+FFFD).
 */
export function firstCharacters(text: string, max: number): string {
  if (text.length <= max) return text;
  return Array.from(text).slice(0, max).join('');
}

/**
 * What `String.prototype.trim()` removes (ECMAScript WhiteSpace and LineTerminator), written as
 * `\\uXXXX` escapes that JavaScript's and Python's regular expressions read alike.
 */
export const TRIMMED_CHARACTERS = '\\u0009-\\u000D\\u0020\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
/**
 * The published form of "not empty after trimming" (CLARIFICATIONS 2026-11-26, "describing a rule
 * is not narrowing it"): one character that trim() keeps, anywhere in the value.
 */
export const NON_BLANK_PATTERN = `[^${TRIMMED_CHARACTERS}]`;

/**
 * A text that is trimmed, then holds 1–`max` characters (a title's note, an external id, a
 * question). The document states the trimmed rule it can state: `pattern` (not blank), beside
 * `minLength`/`maxLength`. The server's rule is trim() then the limits; the pattern only says it.
 */
export function trimmedText(max: number, min = 1) {
  return text().trim().min(min).max(max).meta({ pattern: NON_BLANK_PATTERN });
}

/** ISO 8601 UTC timestamp as it appears on the wire (`2026-01-31T09:30:00.000Z`). */
export const Timestamp = z.iso.datetime({ offset: false }).max(30).describe('ISO 8601 UTC timestamp');

/** An ISO 8601 instant a client sends (a filter, an ATS event's time), with any offset. */
export const Instant = z.iso.datetime({ offset: true }).max(40);

/**
 * An integer with its bounds, published as `format: int32` (every integer of the API fits one).
 * The bounds are the server's rule; the document reads them from here.
 */
export function int32(min: number, max: number) {
  // One message for every way to miss it: a query's `1.5`, `-1` or `1e3` reach the schema as text,
  // where the validator's own "expected number, received string" is wrong for a client.
  const error = `must be a whole number from ${min} to ${max}`;
  return z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : error) })
    .int({ error })
    .min(min, { error })
    .max(max, { error })
    .meta({ format: 'int32' });
}

/** A prefixed, time-sortable identifier such as `org_01J…`. */
export function prefixedId(prefix: string) {
  return z
    .string()
    .max(prefix.length + 41)
    .regex(new RegExp(`^${prefix}_[0-9A-Za-z]{10,40}$`), `must be an id: ${prefix}_ followed by 10–40 letters or digits`)
    .describe(`Identifier with the \`${prefix}_\` prefix`);
}

export const ID_PREFIXES = {
  candidate: 'cand',
  position: 'pos',
  interview: 'int',
  flow: 'flow',
  stage: 'stage',
  enrollment: 'enr',
  webhook: 'wh',
  task: 'task',
  event: 'evt',
  delivery: 'dlv',
  atsEvent: 'atsevt',
  apiKey: 'key',
  organization: 'org',
  user: 'usr',
  session: 'ses',
  auditEvent: 'aud',
  question: 'q',
  turn: 'turn',
} as const;

/** Success envelope: `{"data": …}` and nothing else at the top level (PRODUCT.md §3). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data });
}

/**
 * An integer query parameter: plain decimal digits only (`1e1`, `+5`, ` 5` stay strings and fail
 * as not a whole number). A JSON number passes as is, so services take the same schema over tRPC.
 */
export function queryInt<T extends z.ZodType<number, unknown>>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,15}$/.test(v) ? Number(v) : v), schema);
}

/** Largest page of every list (PRODUCT.md §4). */
export const PAGE_MAX = 100;

/** A list response: `{"data": [...]}`, one page of at most PAGE_MAX items. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return envelope(z.array(item).max(PAGE_MAX));
}

/** Page size of every list (PRODUCT.md §4). */
export const PageLimit = queryInt(int32(1, PAGE_MAX).default(25)).describe(`Page size, 1–${PAGE_MAX}`);
export const Cursor = text().max(512).describe('Opaque cursor from the previous page\'s `Link: rel="next"`');
