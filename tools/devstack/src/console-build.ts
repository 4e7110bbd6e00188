import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { step, withProgress } from './log.js';
import { ROOT } from './paths.js';

const CONSOLE_DIR = join(ROOT, 'apps', 'console');
const DIST = join(CONSOLE_DIR, 'dist');
/** Written after a successful build: the hash of the sources it was built from. */
const STAMP = join(DIST, '.source-hash');
/** What the bundle is made of: the console's sources and config, the contracts it imports, the lockfile. */
const INPUTS = [
  join(CONSOLE_DIR, 'src'),
  join(CONSOLE_DIR, 'index.html'),
  join(CONSOLE_DIR, 'vite.config.ts'),
  join(CONSOLE_DIR, 'package.json'),
  join(ROOT, 'packages', 'contracts', 'src'),
  join(ROOT, 'package-lock.json'),
];

function files(path: string, found: string[] = []): string[] {
  if (!existsSync(path)) return found;
  if (!statSync(path).isDirectory()) {
    found.push(path);
    return found;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    files(join(path, name), found);
  }
  return found;
}

/** A hash of every input's path and content: a checkout, an edit or a dependency bump changes it. */
export function consoleSourceHash(): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((p) => files(p))) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function runViteBuild(): Promise<void> {
  const vitePackage = createRequire(join(CONSOLE_DIR, 'package.json')).resolve('vite/package.json');
  const bin = join(dirname(vitePackage), (JSON.parse(readFileSync(vitePackage, 'utf8')) as { bin: { vite: string } }).bin.vite);
  return new Promise((resolve, reject) => {
    const output: string[] = [];
    const child = spawn(process.execPath, [bin, 'build', '--logLevel', 'warn'], { cwd: CONSOLE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the console build failed (vite exited with ${code}):\n${output.join('').trim()}`))));
  });
}

/**
 * Builds apps/console into dist/ unless dist/ was built from exactly these sources
 * (`npm start` and the test runner call it; `npm run build` always builds).
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const hash = consoleSourceHash();
  const built = existsSync(STAMP) && existsSync(join(DIST, 'index.html')) ? readFileSync(STAMP, 'utf8').trim() : '';
  if (built === hash) {
    step('The console build is up to date (apps/console/dist)');
    return;
  }
  await withProgress(built ? 'Rebuilding the console (its sources changed)' : 'Building the console (apps/console/dist)', runViteBuild());
  writeFileSync(STAMP, `${hash}\n`);
}
