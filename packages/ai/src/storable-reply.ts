/**
 * What a model said, made storable: U+0000 removed (Postgres stores it in neither text nor
 * jsonb) and a UTF-16 surrogate without its partner written as U+FFFD (no encoding carries it,
 * and jsonb refuses its escape). A reply is free text from outside: one such character in a
 * rationale or a summary would otherwise fail the save of a whole evaluation or job description
 * with the database's error, on every retry.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this removes
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function storableText(text: string): string {
  return text.replace(NUL, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** Every string of a parsed JSON reply, keys included, made storable. */
export function storableReply(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableReply);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableReply(v)]));
  return value;
}
