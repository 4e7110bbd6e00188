import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  internalAuthSecret: string;
  demoAdminPassword: string;
}

/**
 * Secrets of a local stack, made on the first start and kept in the data directory (mode 600) so
 * sessions, cursors and the demo login survive a restart. Production passes them in as env vars.
 */
export function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  mkdirSync(dataDir, { recursive: true });
  const secrets: LocalSecrets = {
    internalAuthSecret: randomBytes(32).toString('base64url'),
    demoAdminPassword: randomBytes(9).toString('base64url'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
