import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { bootstrapDemo } from './bootstrap.js';
import { step, warn } from './log.js';
import { DATA_DIR, ROOT } from './paths.js';
import { localSecrets } from './secrets.js';
import { onStopSignal } from './signals.js';
import { startStack, type Stack } from './stack.js';
import { printTapSummary } from './tap-summary.js';
import { ensureConsoleBuilt } from './console-build.js';

/**
 * `npm test` after lint and typecheck: starts one real stack (embedded Postgres on a free port,
 * the Temporal dev server, every service) in a throw-away data directory, runs every *.test.ts
 * of the workspaces with node's test runner against it, then stops it.
 */
const TEST_ROOTS = ['packages', 'tools', 'services', 'gateway', 'workflows'];
/** Suites that start their own processes from the runtime tree, with their own runner (tools/topology/src/run-tests.ts). */
const OWN_RUNNER = [join(ROOT, 'tools/topology/test'), join(ROOT, 'tools/faults/test')];

function findTests(dir: string, found: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (OWN_RUNNER.includes(path)) continue;
    if (statSync(path).isDirectory()) findTests(path, found);
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const filter = process.argv.slice(2);
const files = TEST_ROOTS.flatMap((r) => findTests(join(ROOT, r)))
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  warn('no test files found');
  process.exit(1);
}

// One directory per run, so runs can overlap (a developer's and a helper's); removed when it passed.
const dataDir = join(DATA_DIR, 'test-stacks', String(process.pid));
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile);
const tapFile = join(dataDir, 'results.tap');

let stack: Stack | null = null;
let exitCode = 1;
onStopSignal(() => void stack?.stop().then(() => process.exit(130)));
try {
  // The browser tests open the console the gateway serves from apps/console/dist.
  await ensureConsoleBuilt();
  step(`Starting a test stack (process output in ${relative(ROOT, logFile)})`);
  stack = await startStack({
    mode: 'test',
    dataDir,
    env: { ...process.env, DATABASE_URL: process.env['TEST_DATABASE_URL'], TEMPORAL_ADDRESS: process.env['TEST_TEMPORAL_ADDRESS'] },
    log: (name) => (line) => logStream.write(`${name.padEnd(10)}| ${line}\n`),
  });
  const admin = localSecrets(dataDir).demoAdminPassword;
  const demo = await bootstrapDemo(stack.env, admin);
  step(`Running ${files.length} test files`);
  exitCode = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2',
      '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        ...stack!.env,
        GATEWAY_URL: `http://127.0.0.1:${stack!.env['GATEWAY_PORT']}`,
        TEMPORAL_CLI: stack!.temporalCli,
        TEST_DATA_DIR: dataDir,
        TEST_DEMO_ORG_ID: demo.organization.id,
        TEST_ADMIN_EMAIL: demo.admin.email,
        TEST_ADMIN_PASSWORD: demo.admin.password,
      },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
} catch (err) {
  warn(`test stack failed: ${(err as Error).message} (see ${relative(ROOT, logFile)})`);
} finally {
  await stack?.stop();
  logStream.end();
}
printTapSummary(tapFile);
if (exitCode === 0) rmSync(dataDir, { recursive: true, force: true });
else process.stdout.write(`stack output kept in ${relative(ROOT, logFile)}\n`);
process.exit(exitCode);
