import { z } from 'zod';
import { text } from './common.js';

export const METADATA_MAX_KEYS = 50;
const MetadataKey = text().max(100);
const MetadataValue = text().max(1000);

/**
 * Keys a JavaScript object cannot hold as data: assigning `__proto__` replaces the object's
 * prototype instead of storing a value, so zod (and any `{}` built from input) drops it without a
 * word. Refused instead (issue 18 item 2); `constructor` and `prototype` are ordinary own keys,
 * stored as ever.
 */
const UNSTORABLE_KEYS = ['__proto__'];

/**
 * Refuses an unstorable key of a client's map before the record parses it (parsing would drop
 * it), with the key in `details`.
 */
function refusingUnstorableKeys<T extends z.ZodType>(record: T) {
  return z.preprocess((value, ctx) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const key of UNSTORABLE_KEYS) {
        if (Object.hasOwn(value, key)) ctx.addIssue({ code: 'custom', message: `the key ${key} cannot be stored; use another name`, path: [key], input: value });
      }
    }
    return value;
  }, record);
}

const atMostKeys = (m: object) => Object.keys(m).length <= METADATA_MAX_KEYS;

const MAP_DESCRIPTION = `Your own string key/value pairs (≤ ${METADATA_MAX_KEYS} keys)`;

/** A candidate's own string key/value pairs (PRODUCT.md §4: ≤ 50 keys), as the API returns them. */
export const StoredMetadata = z
  .record(MetadataKey, MetadataValue)
  .refine(atMostKeys, `at most ${METADATA_MAX_KEYS} keys`)
  .meta({ maxProperties: METADATA_MAX_KEYS })
  .describe(MAP_DESCRIPTION);

/** The metadata a client sends on create. */
export const Metadata = refusingUnstorableKeys(StoredMetadata).describe(`${MAP_DESCRIPTION}; the key \`__proto__\` is refused`);

/** PATCH's metadata: merged into the stored map, a key set to `null` is removed. */
export const MetadataPatch = refusingUnstorableKeys(
  z
    .record(MetadataKey, MetadataValue.nullable())
    .refine(atMostKeys, `at most ${METADATA_MAX_KEYS} keys`)
    .meta({ maxProperties: METADATA_MAX_KEYS }),
).describe(`Merged into the stored metadata; a key set to \`null\` is removed (≤ ${METADATA_MAX_KEYS} keys in all; the key \`__proto__\` is refused)`);
