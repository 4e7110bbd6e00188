import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { randomBase62, toBase62 } from './base62.js';

/**
 * API key format (PRODUCT.md §2, GitHub's token scheme): `hl_` + 32 random base62 characters +
 * 6 base62 characters of CRC-32 of the random part. The checksum lets the gateway reject a
 * mistyped or made-up key without a database look-up.
 */
export const API_KEY_PREFIX = 'hl_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^hl_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function checksum(random: string): string {
  return toBase62(crc32(random), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${checksum(random)}`;
}

/** True when the key has the right shape and its checksum matches. No I/O. */
export function isWellFormedApiKey(key: string): boolean {
  const match = KEY_PATTERN.exec(key);
  return match !== null && checksum(match[1]!) === match[2];
}

/** What is stored: SHA-256 of the whole key, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The display prefix kept beside the hash: the first 8 characters after `hl_`. */
export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + 8);
}

export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
