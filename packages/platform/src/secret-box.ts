import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Key, KeyRing } from './keys.js';

/**
 * Encryption at rest for values the platform must read back (webhook signing secrets, stored
 * idempotent responses, invite tokens): AES-256-GCM under the current key of one purpose's key
 * ring, a fresh IV per value, `v2:<key id>:<iv>:<tag>:<ciphertext>`. Values sealed before key ids
 * (`v1:<iv>:<tag>:<ciphertext>`) are opened with whichever key authenticates them.
 */
export class SecretBox {
  constructor(private readonly keys: KeyRing) {}

  seal(plaintext: string): string {
    const { id, secret } = this.keys.current;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', secret, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v2', id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts[0] === 'v2' && parts.length === 5) {
      const key = this.keys.find(parts[1]!);
      if (!key) throw new Error(`sealed with key ${parts[1]}, which is no longer configured`);
      return decrypt(key, parts[2]!, parts[3]!, parts[4]!);
    }
    if (parts[0] === 'v1' && parts.length === 4) {
      for (const key of this.keys.keys) {
        try {
          return decrypt(key, parts[1]!, parts[2]!, parts[3]!);
        } catch {
          /* the next key, if any */
        }
      }
      throw new Error('no configured key opens this value');
    }
    throw new Error('not a sealed value');
  }

  /** The prefix of every value sealed under the current key (for finding the others in SQL). */
  get currentPrefix(): string {
    return `v2:${this.keys.current.id}:`;
  }

  /** Whether `value` was sealed under the current key (else re-sealing moves it there). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(this.currentPrefix);
  }

  /** Whether `value` looks sealed (rows written before sealing existed are not). */
  static isSealed(value: string): boolean {
    return /^v[12]:/.test(value);
  }
}

function decrypt(key: Key, iv: string, tag: string, ct: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key.secret, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
}
