import { hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * One key per purpose (PRODUCT.md §11), each with an id so it can be rotated with an overlap.
 * A setting lists the keys of one purpose, newest first: `k2:<secret>,k1:<older>`. The first key
 * signs or seals; every listed key verifies or opens, so a key is added first, the old one kept
 * until nothing made with it is still in use, and then dropped (docs/operations.md).
 */
export interface Key {
  id: string;
  secret: Buffer;
}

export class KeyRing {
  constructor(readonly keys: readonly Key[]) {
    if (keys.length === 0) throw new Error('a key ring needs at least one key');
  }

  /** The key that signs or seals. */
  get current(): Key {
    return this.keys[0]!;
  }

  find(id: string): Key | undefined {
    return this.keys.find((k) => k.id === id);
  }
}

/** `secret`: an HMAC secret of at least 32 characters; `aes256`: 32 random bytes, base64. */
export type KeyKind = 'secret' | 'aes256';

const KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;

/** Parses a key-list setting; throws with a readable message (no key material in it). */
export function parseKeyRing(value: string, kind: KeyKind): KeyRing {
  const keys = value.split(',').map((entry, i) => {
    const colon = entry.indexOf(':');
    const id = entry.slice(0, colon).trim();
    const text = entry.slice(colon + 1).trim();
    if (colon < 1 || !KEY_ID.test(id)) throw new Error(`entry ${i + 1} must be <id>:<key>, the id 1–16 letters, digits, - or _`);
    if (kind === 'secret') {
      if (text.length < 32) throw new Error(`key ${id} must be at least 32 characters`);
      return { id, secret: Buffer.from(text, 'utf8') };
    }
    const secret = Buffer.from(text, 'base64');
    if (secret.length !== 32) throw new Error(`key ${id} must be 32 bytes, base64`);
    return { id, secret };
  });
  const ids = new Set(keys.map((k) => k.id));
  if (ids.size !== keys.length) throw new Error('key ids must be unique');
  return new KeyRing(keys);
}

/** The zod type of a key-list setting. */
export function keyRingSetting(name: string, kind: KeyKind) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is not set` : undefined) })
    .transform((value, ctx) => {
      try {
        return parseKeyRing(value, kind);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });
}

/** A fresh key-list setting with one key (the launcher's first start, tests). */
export function newKeyRingSetting(kind: KeyKind, id = 'k1'): string {
  return `${id}:${kind === 'secret' ? randomBytes(32).toString('base64url') : randomBytes(32).toString('base64')}`;
}

/** Every key-list setting of the platform, one per purpose. */
export const KEY_SETTING_NAMES = ['INTERNAL_TOKEN_KEYS', 'CURSOR_KEYS', 'WEBHOOK_SECRET_KEYS', 'STORED_RESPONSE_KEYS', 'INVITE_TOKEN_KEYS'] as const;

/** Key id the settings from before key ids get: `k0`. */
export const LEGACY_KEY_ID = 'k0';

/**
 * Stacks configured before key ids keep starting: INTERNAL_AUTH_SECRET stands in for the internal
 * token and cursor keys (as it was), WEBHOOK_SECRET_KEY for the webhook-secret key, and the two
 * newer purposes get keys derived from INTERNAL_AUTH_SECRET (HKDF, one per purpose). Each becomes
 * key `k0` of its setting, so rotating to a new key is the same step as any later rotation.
 */
export function withLegacyKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  // An empty value is unset (Compose passes `${NAME:-}` through as '').
  for (const name of [...KEY_SETTING_NAMES, 'INTERNAL_AUTH_SECRET', 'WEBHOOK_SECRET_KEY']) if (out[name] === '') delete out[name];
  const legacy = out['INTERNAL_AUTH_SECRET'];
  const derived = (purpose: string) => Buffer.from(hkdfSync('sha256', legacy!, 'hireloop', purpose, 32)).toString('base64');
  if (legacy) {
    out['INTERNAL_TOKEN_KEYS'] ??= `${LEGACY_KEY_ID}:${legacy}`;
    out['CURSOR_KEYS'] ??= `${LEGACY_KEY_ID}:${legacy}`;
    out['STORED_RESPONSE_KEYS'] ??= `${LEGACY_KEY_ID}:${derived('stored-responses')}`;
    out['INVITE_TOKEN_KEYS'] ??= `${LEGACY_KEY_ID}:${derived('invite-token-seal')}`;
  }
  if (out['WEBHOOK_SECRET_KEY']) out['WEBHOOK_SECRET_KEYS'] ??= `${LEGACY_KEY_ID}:${out['WEBHOOK_SECRET_KEY']}`;
  return out;
}
