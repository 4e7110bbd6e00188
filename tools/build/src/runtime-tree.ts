import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

/** Files no build reads: tests and their folders. A change to them alone keeps a cached tree. */
const TEST_ONLY = /(^|\/)test\/|\.test\.tsx?$/;

/**
 * A content hash of everything a runtime tree is made from: every file git tracks or would track
 * (ignored ones, such as dist/, .data/ and node_modules/, are not inputs) except tests, with its
 * path, plus the Node and npm versions. Null outside a git checkout: then nothing is reused.
 */
export function buildInputsHash(root = REPO_ROOT): string | null {
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null;
  }
  const hash = createHash('sha256').update(`${process.version}\0${process.env['npm_config_user_agent'] ?? ''}\0`);
  for (const path of listed.split('\0').filter((p) => p && !TEST_ONLY.test(p)).sort()) {
    const file = join(root, path);
    // Deleted but still tracked, or a submodule: not an input as it stands.
    if (!existsSync(file) || !statSync(file).isFile()) continue;
    hash.update(path).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

/** A tree is complete once this file is in it (written last). */
const COMPLETE = '.runtime-tree-complete';
/** Trees kept under a cache folder: the most recently used few, so switching branches back and forth reuses. */
const KEPT_TREES = 3;

/**
 * The runtime tree for the checkout as it is, from `cacheRoot/<buildInputsHash>` when an earlier
 * run made it (CI builds it once for test:topology and reuses it for test:faults), else prepared
 * there now. A tree is made under a name of its own and renamed into place when complete, so a
 * run that died halfway or a concurrent run never leaves a partial tree to reuse. Returns the
 * tree and whether it was reused. Outside git it prepares a fresh tree every time.
 */
export function cachedRuntimeTree(cacheRoot: string, root = REPO_ROOT): { tree: string; reused: boolean } {
  const key = buildInputsHash(root);
  const tree = join(cacheRoot, key ?? `fresh-${process.pid}`);
  const complete = () => key !== null && existsSync(join(tree, COMPLETE));
  if (complete()) {
    utimesSync(tree, new Date(), new Date()); // newest used, last pruned
    return { tree, reused: true };
  }
  const making = join(cacheRoot, `.making-${process.pid}`);
  rmSync(making, { recursive: true, force: true });
  prepareRuntimeTree(making);
  writeFileSync(join(making, COMPLETE), `${new Date().toISOString()}\n`);
  if (complete()) {
    // A concurrent run finished the same tree first, and may be using it: keep that one.
    rmSync(making, { recursive: true, force: true });
    return { tree, reused: true };
  }
  rmSync(tree, { recursive: true, force: true });
  renameSync(making, tree);
  pruneTrees(cacheRoot, tree);
  return { tree, reused: false };
}

/** Drops older trees beyond KEPT_TREES, and the half-made trees of runs that died. */
function pruneTrees(cacheRoot: string, keep: string): void {
  for (const name of readdirSync(cacheRoot)) {
    const pid = /^\.making-(\d+)$/.exec(name)?.[1];
    if (pid && !isRunning(Number(pid))) rmSync(join(cacheRoot, name), { recursive: true, force: true });
  }
  const trees = readdirSync(cacheRoot)
    .filter((name) => !name.startsWith('.'))
    .map((name) => join(cacheRoot, name))
    .filter((path) => path !== keep)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of trees.slice(KEPT_TREES - 1)) rmSync(old, { recursive: true, force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Usage: node --import tsx tools/build/src/runtime-tree.ts <target>   (after `npm run build`)
if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const target = process.argv[2];
  if (!target) throw new Error('usage: runtime-tree.ts <target directory>');
  assembleRuntimeTree(resolve(target));
  process.stdout.write(`runtime tree in ${dirname(resolve(target, 'package.json'))}\n`);
}
