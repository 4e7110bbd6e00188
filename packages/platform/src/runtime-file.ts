import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withLegacyKeys } from './keys.js';

/**
 * `.data/runtime.json`: how to reach the stack that `npm start` is running (written by the
 * launcher, read by the CLIs and scripts). Holds the internal token keys, so it is mode 600.
 */
export interface RuntimeInfo {
  identityUrl: string;
  /** The INTERNAL_TOKEN_KEYS setting. */
  internalTokenKeys: string;
  gatewayUrl: string;
  pid: number;
}

export const RUNTIME_FILE = fileURLToPath(new URL('../../../.data/runtime.json', import.meta.url));

export function writeRuntimeInfo(info: RuntimeInfo, file = RUNTIME_FILE): void {
  writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
}

/** Env vars win (IDENTITY_URL + INTERNAL_TOKEN_KEYS or INTERNAL_AUTH_SECRET); otherwise the running local stack. */
export function readRuntimeInfo(env: NodeJS.ProcessEnv = process.env, file = RUNTIME_FILE): RuntimeInfo {
  const keys = withLegacyKeys(env)['INTERNAL_TOKEN_KEYS'];
  if (env['IDENTITY_URL'] && keys) {
    return { identityUrl: env['IDENTITY_URL'], internalTokenKeys: keys, gatewayUrl: env['PUBLIC_BASE_URL'] ?? '', pid: 0 };
  }
  if (!existsSync(file)) {
    throw new Error('No running platform found: start it with `npm start` (or set IDENTITY_URL and INTERNAL_TOKEN_KEYS).');
  }
  return JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
}
