import { randomFillSync } from 'node:crypto';

/** `0-9A-Za-z`: ASCII order, so fixed-width base62 strings sort like the numbers they encode. */
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function toBase62(value: bigint | number, width: number): string {
  let n = BigInt(value);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(width, '0');
}

/**
 * CSPRNG bytes drawn 4 KiB at a time (as the uuid package does): one call into the generator per
 * ~200 request ids or record ids instead of one each. Every byte is used once.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Uniform random base62 characters from the CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}
