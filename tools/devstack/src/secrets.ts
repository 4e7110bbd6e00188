import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  internalAuthSecret: string;
  demoAdminPassword: string;
  webhookSecretKey: string;
}

/**
 * Secrets of a local stack, made on the first start and kept in the data directory (mode 600) so
 * sessions, cursors and the demo login survive a restart. Production passes them in as env vars.
 */
export function localSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
    // A data directory from before a secret existed gets it added, keeping the others.
    if (kept.internalAuthSecret && kept.demoAdminPassword && kept.webhookSecretKey) return kept as LocalSecrets;
    const completed = { ...fresh(), ...kept };
    writeFileSync(file, JSON.stringify(completed, null, 2), { mode: 0o600 });
    return completed;
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = fresh();
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

function fresh(): LocalSecrets {
  return {
    internalAuthSecret: randomBytes(32).toString('base64url'),
    demoAdminPassword: randomBytes(9).toString('base64url'),
    webhookSecretKey: randomBytes(32).toString('base64'),
  };
}
