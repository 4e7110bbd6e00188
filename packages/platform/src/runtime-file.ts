import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/**
 * The repository's (or a runtime tree's) root: the nearest folder at or above `start` whose
 * package.json declares workspaces. Source and bundles sit at different depths
 * (`packages/platform/src/` vs `services/identity/dist/cli/`), so no fixed relative path fits both.
 */
export function workspaceRoot(start: string): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object)) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** `<root>/.data/runtime.json`, or HIRELOOP_RUNTIME_FILE (a launcher under test writes elsewhere). */
export function runtimeFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env['HIRELOOP_RUNTIME_FILE'] ?? join(workspaceRoot(dirname(fileURLToPath(import.meta.url))) ?? process.cwd(), '.data', 'runtime.json');
}

export function writeRuntimeInfo(info: RuntimeInfo, file = runtimeFilePath()): void {
  writeFileSync(file, JSON.stringify(info, null, 2), { mode: 0o600 });
}

/** Env vars win (IDENTITY_URL + INTERNAL_TOKEN_KEYS or INTERNAL_AUTH_SECRET); otherwise the running local stack. */
export function readRuntimeInfo(env: NodeJS.ProcessEnv = process.env, file = runtimeFilePath()): RuntimeInfo {
  const keys = withLegacyKeys(env)['INTERNAL_TOKEN_KEYS'];
  if (env['IDENTITY_URL'] && keys) {
    return { identityUrl: env['IDENTITY_URL'], internalTokenKeys: keys, gatewayUrl: env['PUBLIC_BASE_URL'] ?? '', pid: 0 };
  }
  if (!existsSync(file)) {
    throw new Error('No running platform found: start it with `npm start` (or set IDENTITY_URL and INTERNAL_TOKEN_KEYS).');
  }
  return JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
}
