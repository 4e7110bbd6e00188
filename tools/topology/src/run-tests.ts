import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { cachedRuntimeTree } from '@hireloop/build/runtime-tree';
import { step, warn } from '@hireloop/devstack/log';
import { DATA_DIR, ROOT } from '@hireloop/devstack/paths';
import { printTapSummary } from '@hireloop/devstack/tap-summary';

/**
 * `npm run test:topology` (and `test:faults`): builds once, assembles the runtime tree with
 * production dependencies only, then runs the given test files (or every *.test.ts under the given
 * folders) one at a time. Each test file starts the topology it needs from that tree
 * (./testing.ts), so these files are not part of `npm test`'s shared stack.
 * The tree is cached in .data/runtime-trees/ under a hash of the build inputs (cachedRuntimeTree):
 * `test:faults` right after `test:topology` (CI) reuses it instead of building again.
 * `TOPOLOGY_TREE=<dir>` uses a tree assembled elsewhere (while writing a test).
 */
function findTests(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => (name.endsWith('.test.ts') || statSync(join(path, name)).isDirectory() ? findTests(join(path, name)) : []));
}

const args = process.argv.slice(2);
if (args.length === 0) {
  warn('usage: run-tests.ts <test folder or file>…');
  process.exit(2);
}
const files = args.flatMap((a) => findTests(resolve(ROOT, a))).sort();
const dataDir = join(DATA_DIR, 'topology-runs', String(process.pid));
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const tapFile = join(dataDir, 'results.tap');

let tree = process.env['TOPOLOGY_TREE'];
if (!tree) {
  step('Building, and assembling the runtime tree (production dependencies only), unless one of the same sources is cached');
  const cached = cachedRuntimeTree(join(DATA_DIR, 'runtime-trees'));
  tree = cached.tree;
  step(`${cached.reused ? 'Reusing' : 'Cached'} the runtime tree ${relative(ROOT, tree)}`);
}
step(`Running ${files.length} test file(s); process output in ${relative(ROOT, dataDir)}/<test>/processes.log`);
const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1',
  '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, TOPOLOGY_TREE: tree, TOPOLOGY_DATA_DIR: dataDir },
});
// Ctrl-C reaches the test process too (same group); wait for it to stop its topology.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
const exitCode = await new Promise<number>((done) => child.on('exit', (code) => done(code ?? 1)));
printTapSummary(tapFile);
if (exitCode === 0) rmSync(dataDir, { recursive: true, force: true });
else process.stdout.write(`process output kept in ${relative(ROOT, dataDir)}\n`);
process.exit(exitCode);
