import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newKeyRingSetting, withLegacyKeys, type KeyKind } from '@hireloop/platform';
import { DATABASE_SERVICES, type DatabaseService } from './database-roles.js';

/** The key-list settings of the platform, one per purpose (PRODUCT.md §11), and their kind. */
export const KEY_SETTINGS = {
  INTERNAL_TOKEN_KEYS: 'secret',
  CURSOR_KEYS: 'secret',
  WEBHOOK_SECRET_KEYS: 'aes256',
  STORED_RESPONSE_KEYS: 'aes256',
  INVITE_TOKEN_KEYS: 'aes256',
} as const satisfies Record<string, KeyKind>;
export type KeySettingName = keyof typeof KEY_SETTINGS;

export interface LocalSecrets {
  demoAdminPassword: string;
  keys: Record<KeySettingName, string>;
  /** Passwords of the services' Postgres roles (database-roles.ts). */
  databasePasswords: Record<DatabaseService, string>;
  /** Data directories from before key ids: the old secrets, kept for what was made with them. */
  internalAuthSecret?: string;
  webhookSecretKey?: string;
}

/**
 * Secrets of a local stack, made on the first start and kept in the data directory (mode 600) so
 * sessions, cursors and the demo login survive a restart. Production passes them in as env vars.
 * A data directory from before a secret existed gets it added, keeping the others; one from before
 * key ids gets its old secrets as key `k0` of each purpose, so nothing made with them breaks.
 */
export function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const legacy = withLegacyKeys({ INTERNAL_AUTH_SECRET: kept.internalAuthSecret, WEBHOOK_SECRET_KEY: kept.webhookSecretKey });
  const keys = Object.fromEntries(
    Object.entries(KEY_SETTINGS).map(([name, kind]) => [name, kept.keys?.[name as KeySettingName] ?? legacy[name] ?? newKeyRingSetting(kind)]),
  ) as LocalSecrets['keys'];
  const databasePasswords = Object.fromEntries(
    DATABASE_SERVICES.map((s) => [s, kept.databasePasswords?.[s] ?? randomBytes(24).toString('base64url')]),
  ) as LocalSecrets['databasePasswords'];
  const secrets: LocalSecrets = { ...kept, demoAdminPassword: kept.demoAdminPassword ?? randomBytes(9).toString('base64url'), keys, databasePasswords };
  if (JSON.stringify(secrets) !== JSON.stringify(kept)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}

/**
 * The key settings the platform's processes get: each from the environment when set there (the
 * older INTERNAL_AUTH_SECRET and WEBHOOK_SECRET_KEY included), else from the data directory.
 */
export function keySettings(given: NodeJS.ProcessEnv, secrets: LocalSecrets): Record<string, string> {
  const fromEnv = withLegacyKeys(given);
  const env: Record<string, string> = {};
  for (const name of Object.keys(KEY_SETTINGS) as KeySettingName[]) env[name] = fromEnv[name] ?? secrets.keys[name];
  // Recruiting's start-up backfill seals invite tokens that were derived from the old secret.
  const legacySecret = given['INTERNAL_AUTH_SECRET'] ?? secrets.internalAuthSecret;
  if (legacySecret) env['INTERNAL_AUTH_SECRET'] = legacySecret;
  return env;
}
