import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';

/**
 * argon2id at OWASP's first recommendation (m = 19 MiB, t = 2, p = 1), PHC strings
 * (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). `Algorithm` is a const enum, which isolated
 * modules cannot read: 2 is Argon2id.
 */
export const ARGON2_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}$`;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** True when `stored` is not an argon2id hash with today's parameters: rehash it at the next login. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith(CURRENT_PREFIX);
}

/** Checks a password against an argon2id hash, or a legacy scrypt one (`scrypt$N$r$p$salt$hash`). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('$argon2')) return verify(stored, password).catch(() => false);
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

/**
 * What an unknown e-mail is checked against, so that it costs the same argon2id work as a wrong
 * password and the answer time does not tell which accounts exist. Hashed once per process, with
 * the parameters of real hashes; no password matches it in practice.
 */
export const dummyPasswordHash: Promise<string> = hashPassword(randomBytes(32).toString('base64url'));

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));

async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, expectedB64] = stored.split('$');
  if (!salt || !expectedB64) return false;
  const expected = Buffer.from(expectedB64, 'base64url');
  const key = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, { N: Number(n), r: Number(r), p: Number(p) }).catch(() => null);
  return key !== null && key.length === expected.length && timingSafeEqual(key, expected);
}

/** The operations login needs; the router passes this module's, a test may wrap them to watch the work done. */
export interface Passwords {
  hash: (password: string) => Promise<string>;
  verify: (password: string, stored: string) => Promise<boolean>;
  needsRehash: (stored: string) => boolean;
  dummyHash: () => Promise<string>;
}

export const passwords: Passwords = { hash: hashPassword, verify: verifyPassword, needsRehash, dummyHash: () => dummyPasswordHash };
