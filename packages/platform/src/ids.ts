import { toBase62, randomBase62 } from './base62.js';

/**
 * A prefixed, time-sortable id (PRODUCT.md §7): `<prefix>_` + 9 base62 characters of the creation
 * time in milliseconds + 14 random base62 characters (~83 bits).
 */
export function newId(prefix: string, now = Date.now()): string {
  return `${prefix}_${toBase62(now, 9)}${randomBase62(14)}`;
}
