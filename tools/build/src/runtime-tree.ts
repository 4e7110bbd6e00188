import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The production tree, as the image's runtime stage holds it: the root manifest and lockfile,
 * every workspace's package.json (npm ci needs them all), the deployables' build output (the
 * console's bundle among them) and the gateway's static files. `npm ci --omit=dev` inside it adds the production dependencies only:
 * no tsx, no TypeScript sources, no devstack. The Dockerfile's build stage assembles the tree with
 * this module, and runtime-tree.test.ts assembles the same tree and runs every process from it.
 */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Workspaces with a build (each one's dist/ is copied); the console's is the gateway's to serve. */
export const DEPLOYABLES = ['services/identity', 'services/recruiting', 'services/integrations', 'gateway', 'workflows', 'apps/console'];
/** Files served at run time that are not build output (the changelog is /developers/changelog). */
const STATIC = ['gateway/static', 'docs/changelog.md'];

/** Every process of a production deployment, as `node <entry>` from the tree's root. */
export const PROCESSES = [
  { name: 'identity', entry: 'services/identity/dist/index.js', portEnv: 'IDENTITY_PORT', urlEnv: 'IDENTITY_URL' },
  { name: 'recruiting', entry: 'services/recruiting/dist/index.js', portEnv: 'RECRUITING_PORT', urlEnv: 'RECRUITING_URL' },
  { name: 'integrations', entry: 'services/integrations/dist/index.js', portEnv: 'INTEGRATIONS_PORT', urlEnv: 'INTEGRATIONS_URL' },
  { name: 'worker', entry: 'workflows/dist/worker.js', portEnv: 'WORKER_PORT' },
  { name: 'gateway', entry: 'gateway/dist/index.js', portEnv: 'GATEWAY_PORT' },
] as const;

/** The workspace folders, read from the lockfile (its non-node_modules entries). */
function workspaceDirs(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(lock.packages).filter((p) => p !== '' && !p.includes('node_modules/'));
}

/** Copies the runtime tree of a built checkout (`npm run build` done) into `target`. */
export function assembleRuntimeTree(target: string, root = REPO_ROOT): void {
  mkdirSync(target, { recursive: true });
  const copy = (path: string) => cpSync(join(root, path), join(target, path), { recursive: true });
  copy('package.json');
  copy('package-lock.json');
  for (const dir of workspaceDirs(root)) copy(join(dir, 'package.json'));
  for (const dir of DEPLOYABLES) {
    if (!existsSync(join(root, dir, 'dist'))) throw new Error(`${dir}/dist is missing: run \`npm run build\` first.`);
    copy(join(dir, 'dist'));
  }
  for (const path of STATIC) copy(path);
}

/** `npm ci --omit=dev` in the tree (from the local npm cache when it can). */
export function installProductionDependencies(target: string): void {
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: target, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** `npm run build`, then the runtime tree in `target` with its production dependencies installed. */
export function prepareRuntimeTree(target: string): void {
  execFileSync('npm', ['run', 'build', '--', '--log-prefix=none', '--output-logs=errors-only'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  assembleRuntimeTree(target);
  installProductionDependencies(target);
}

// Usage: node --import tsx tools/build/src/runtime-tree.ts <target>   (after `npm run build`)
if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) throw new Error('usage: runtime-tree.ts <target directory>');
  assembleRuntimeTree(resolve(target));
  process.stdout.write(`runtime tree in ${dirname(resolve(target, 'package.json'))}\n`);
}
