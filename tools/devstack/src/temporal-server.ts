import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startChild, type ChildHandle } from './child-process.js';

const run = promisify(execFile);

/** Search attributes our workflows set, so operators can filter by them in the Temporal UI. */
export const SEARCH_ATTRIBUTES = ['OrganizationId=Keyword', 'Kind=Keyword'];

export interface TemporalHandle {
  address: string;
  uiUrl: string;
  stop: () => Promise<void>;
}

function stopOrphan(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  try {
    if (pid) process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  rmSync(pidFile, { force: true });
}

export async function waitForTemporal(cli: string, address: string, timeoutMs = 60_000, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await run(cli, ['operator', 'cluster', 'health', '--address', address], { timeout: 5000, signal });
      return;
    } catch (err) {
      if (signal?.aborted) return;
      if (Date.now() > deadline) throw new Error(`Temporal at ${address} did not become healthy: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** The dev server ended before it answered because a port of its was taken meanwhile (another process's connection got it first). */
export class TemporalPortTaken extends Error {}

/**
 * `temporal server start-dev` with its state in a SQLite file under `dataDir` (kept between
 * starts, in write-ahead-log mode), the UI on `uiPort`, and our search attributes registered.
 */
export async function startTemporalDevServer(options: {
  cli: string;
  dataDir: string;
  port: number;
  uiPort: number;
  log: (line: string) => void;
  ownGroup?: boolean;
  /** Trades durability for speed (no sync on commit): only for throw-away test stacks. */
  fast?: boolean;
}): Promise<TemporalHandle> {
  await mkdir(options.dataDir, { recursive: true });
  const pidFile = join(options.dataDir, 'temporal.pid');
  stopOrphan(pidFile);
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(options.port), '--ui-port', String(options.uiPort),
    '--db-filename', join(options.dataDir, 'temporal.db'), '--log-level', 'warn'];
  for (const attr of SEARCH_ATTRIBUTES) args.push('--search-attribute', attr);
  // Write-ahead log instead of the default rollback journal: a commit appends to one file instead
  // of creating, syncing and deleting a journal beside the database (docs/benchmarks.md: about a
  // third of the dev server's CPU per workflow). FULL syncs the log on every commit, as durable as
  // before; a throw-away test stack syncs nothing, as its Postgres (postgres.ts `fast`).
  args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', `synchronous=${options.fast ? 'off' : 'full'}`);
  let bindFailed = false;
  const log = (line: string) => {
    if (line.includes('address already in use')) bindFailed = true;
    options.log(line);
  };
  const child: ChildHandle = startChild({ name: 'temporal', command: options.cli, args, log, ownGroup: options.ownGroup });
  writeFileSync(pidFile, String(child.pid));
  // Its output is read to the end once the process has closed its pipes (after its exit).
  const outputRead = new Promise<void>((resolve) => child.process.once('close', () => resolve()));
  const address = `127.0.0.1:${options.port}`;
  const waiting = new AbortController();
  try {
    await Promise.race([
      waitForTemporal(options.cli, address, undefined, waiting.signal),
      child.exited.then(async (code) => {
        if (waiting.signal.aborted) return; // it was ready, and has been stopped since
        rmSync(pidFile, { force: true });
        await Promise.race([outputRead, new Promise((r) => setTimeout(r, 2000).unref())]);
        const message = `Temporal dev server exited with code ${code} before it was ready (port ${options.port} or ${options.uiPort} taken?)`;
        throw bindFailed ? new TemporalPortTaken(message) : new Error(message);
      }),
    ]);
  } finally {
    waiting.abort();
  }
  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    stop: async () => {
      await child.stop();
      rmSync(pidFile, { force: true });
    },
  };
}
