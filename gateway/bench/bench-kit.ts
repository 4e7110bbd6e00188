import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import autocannon, { type Options, type Result } from 'autocannon';
import pg from 'pg';
import { step, warn } from '@hireloop/devstack/log';
import { DATA_DIR, ROOT } from '@hireloop/devstack/paths';
import { onStopSignal } from '@hireloop/devstack/signals';
import { startStack, type Stack } from '@hireloop/devstack/stack';
import { createIdentityClient } from '@hireloop/identity/client';
import { rethrowServiceError } from '@hireloop/platform';

/**
 * What the benchmarks in gateway/bench share: a throw-away stack started and always stopped,
 * an organization with a key whose rate limit is out of reach, and autocannon runs that are
 * checked before they are measured.
 */

type Scope = 'read' | 'write' | 'admin';

export interface Bench {
  stack: Stack;
  env: Record<string, string>;
  /** `.data/<name>`: the stack's data, its process output (stack.log) and results.md. */
  dataDir: string;
  startedAt: Date;
  /** The gateway on 127.0.0.1 (the public base URL says `localhost`, which may resolve to ::1 first). */
  gatewayUrl: string;
  identity: ReturnType<typeof createIdentityClient>;
  /** Runs before the stack stops (child processes of the bench, pools). */
  onCleanup: (cleanup: () => unknown) => void;
}

export interface BenchOrganization {
  id: string;
  name: string;
  /** The API key's id and its secret `key`. */
  apiKey: { id: string; key: string };
}

/** A report, and the bounds it found exceeded (the bench then exits 1 after printing it). */
export interface BenchOutcome {
  report: string;
  failures: string[];
}

/**
 * Starts a stack in `test` mode under `.data/<name>`, runs `body`, writes the report it returns to
 * results.md and stdout, stops the stack and exits (1 if anything failed or a bound was exceeded).
 */
export async function runBench(name: string, body: (bench: Bench) => Promise<string | BenchOutcome>): Promise<never> {
  const dataDir = join(DATA_DIR, name);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, 'stack.log');
  const logStream = createWriteStream(logFile);
  const cleanups: Array<() => unknown> = [];
  let stack: Stack | null = null;
  let exitCode = 1;
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve().then(cleanup).catch(() => undefined);
    await stack?.stop();
  };
  onStopSignal(() => void stop().then(() => process.exit(130)));
  try {
    const startedAt = new Date();
    step(`Starting a benchmark stack (process output in ${relative(ROOT, logFile)})`);
    stack = await startStack({
      mode: 'test',
      dataDir,
      // Always a throw-away database and Temporal, whatever the shell points at.
      env: { ...process.env, DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
      log: (processName) => (line) => logStream.write(`${processName.padEnd(10)}| ${line}\n`),
      ...(PG_STATEMENTS ? { postgresSettings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } } : {}),
    });
    const { env } = stack;
    const outcome = await body({
      stack,
      env,
      dataDir,
      startedAt,
      gatewayUrl: `http://127.0.0.1:${env['GATEWAY_PORT']}`,
      identity: createIdentityClient(env['IDENTITY_URL']!, env['INTERNAL_TOKEN_KEYS']!),
      onCleanup: (cleanup) => void cleanups.push(cleanup),
    });
    const { report, failures } = typeof outcome === 'string' ? { report: outcome, failures: [] } : outcome;
    writeFileSync(join(dataDir, 'results.md'), report);
    process.stdout.write(`\n${report}`);
    for (const failure of failures) warn(failure);
    exitCode = failures.length ? 1 : 0;
  } catch (err) {
    warn(`benchmark failed: ${(err as Error).message} (see ${relative(ROOT, logFile)})`);
  } finally {
    await stop();
    logStream.end();
  }
  process.exit(exitCode);
}

/**
 * An organization of its own (the benchmarks need nothing the demo seeds) and a key with these
 * scopes whose limit is far above what loopback can reach, so every measured request is served.
 */
export async function newOrganization(bench: Bench, name: string, scopes: Scope[]): Promise<BenchOrganization> {
  const organization = await bench.identity.system.organizations.create.mutate({ name }).catch(rethrowServiceError);
  const apiKey = await newApiKey(bench, organization.id, scopes, 1_000_000);
  return { id: organization.id, name: organization.name, apiKey };
}

/** Another key of an organization, with its own rate limit (requests per minute). */
export async function newApiKey(bench: Bench, organizationId: string, scopes: Scope[], rateLimitPerMinute: number): Promise<BenchOrganization['apiKey']> {
  const apiKey = await bench.identity
    .forOrganization(organizationId)
    .apiKeys.create.mutate({ name: 'bench', scopes, rateLimitPerMinute })
    .catch(rethrowServiceError);
  return { id: apiKey.id, key: apiKey.key };
}

/**
 * A connection for seeding with SQL straight into a service's tables, closed when the bench ends.
 * It skips triggers (`session_replication_role = replica`; the stack's DATABASE_URL is its
 * superuser): recruiting's `stamp_updated_at` would overwrite the historical `updated_at` a seed
 * writes with the clock, and its commit-window check (SYNC_COMMIT_WINDOW_MS, 3 s in test mode)
 * would refuse a statement of ~100 000 rows that runs longer than the window. Foreign keys are
 * triggers too, so the seed's SQL must keep them itself.
 */
export async function seedingSession(bench: Bench, applicationName: string): Promise<pg.Client> {
  const db = await benchDatabase(bench, applicationName);
  await db.query('set session_replication_role = replica');
  return db;
}

/** A connection to the stack's database (its superuser), closed when the bench ends. */
export async function benchDatabase(bench: Bench, applicationName: string): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: bench.env['DATABASE_URL'], application_name: applicationName });
  await db.connect();
  bench.onCleanup(() => db.end());
  return db;
}

/** One request of a run; autocannon calls `setupRequest` before each send when it is given. */
export interface LoadRequest {
  method?: 'GET' | 'POST';
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: LoadRequest) => LoadRequest;
}

export interface LoadTarget {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Instead of a fixed request: requests built per send (autocannon cycles through them). */
  requests?: LoadRequest[];
}

export interface LoadTiming {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
}

export interface LoadRow {
  target: string;
  result: Result;
}

/** One request must answer `status` with a body `answersCorrectly` accepts, or nothing gets measured. */
export async function verifyTarget(target: LoadTarget, answersCorrectly: (body: unknown) => boolean, status = 200): Promise<void> {
  let { url, method, headers } = target;
  let body = target.body;
  const first = target.requests?.[0];
  if (first) {
    const request = first.setupRequest ? first.setupRequest({ ...first }) : first;
    if (request.path) url = new URL(request.path, url).href;
    method = request.method ?? method;
    headers = request.headers ?? headers;
    body = request.body ?? body;
  }
  const res = await fetch(url, { method, headers, body: body ?? null });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* reported below */
  }
  if (res.status !== status || !answersCorrectly(parsed)) {
    throw new Error(`${target.name} answered ${res.status} ${text.slice(0, 300)}; expected ${status} with a valid body.`);
  }
}

/** A warm-up run, then the measured one; `beforeMeasured` runs between the two. */
export async function measureLoad(target: LoadTarget, timing: LoadTiming, beforeMeasured?: () => void): Promise<LoadRow> {
  const options: Options & { requests?: LoadRequest[] } = {
    url: target.url,
    method: target.method,
    headers: target.headers,
    body: target.body,
    connections: timing.connections,
    title: target.name,
    ...(target.requests ? { requests: target.requests } : {}),
  };
  if (timing.warmupSeconds > 0) await autocannon({ ...options, duration: timing.warmupSeconds });
  beforeMeasured?.();
  const result = await autocannon({ ...options, duration: timing.durationSeconds });
  return { target: target.name, result };
}

/** Connection errors and timeouts of a run, for a note under its table (empty when there were none). */
export function failureNotes(rows: LoadRow[]): string[] {
  return rows
    .filter(({ result }) => result.errors > 0 || result.timeouts > 0)
    .map(({ target, result }) => `${target}: ${result.errors} connection errors, ${result.timeouts} timeouts.`);
}

/**
 * CPU time by process from /proc (Linux): what a run cost each part of the stack, and how much of
 * the machine something else used meanwhile.
 */

/** A group of processes whose CPU time is counted: one service, or Postgres with its backends. */
export interface CpuSource {
  name: string;
  pids: () => number[];
}

export interface CpuUsage {
  bySource: Map<string, number>;
  /** CPU ms of the whole machine (every CPU) not spent idle, and wall ms. */
  machineBusy: number;
  wall: number;
}

export const HAS_PROC = existsSync('/proc/self/stat');

/**
 * BENCH_PG_STATEMENTS=1: the stack's Postgres loads pg_stat_statements, and a benchmark that
 * supports it reports the statements that took the most time in a window of its run.
 */
export const PG_STATEMENTS = process.env['BENCH_PG_STATEMENTS'] === '1';

/** Starts pg_stat_statements' window afresh (BENCH_PG_STATEMENTS=1; otherwise nothing). */
export async function resetStatements(db: pg.Client): Promise<void> {
  if (!PG_STATEMENTS) return;
  await db.query('create extension if not exists pg_stat_statements');
  await db.query('select pg_stat_statements_reset()');
}

/**
 * The `limit` statements with the most execution time since `resetStatements`, as markdown rows
 * (execution time includes waiting for row locks); none without BENCH_PG_STATEMENTS=1.
 */
export async function topStatements(db: pg.Client, limit = 12): Promise<string[]> {
  if (!PG_STATEMENTS) return [];
  const { rows } = await db.query<{ ms: number; calls: number; rows: number; query: string }>(
    `select round(total_exec_time)::int as ms, calls::int, rows::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
     from pg_stat_statements order by total_exec_time desc limit $1`,
    [limit],
  );
  return [
    '| execution ms (total) | calls | ms per call | rows | statement (start) |',
    '|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.ms} | ${r.calls} | ${(r.ms / Math.max(1, r.calls)).toFixed(1)} | ${r.rows} | \`${r.query.replaceAll('|', '\\|').replaceAll('`', "'")}\` |`),
  ];
}
/** /proc counts CPU time in USER_HZ ticks, 100 per second on Linux. */
const MS_PER_TICK = 10;

/** utime + stime of a process in ms, or null once it has exited. */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return null;
  }
}

/** Postgres serves each connection from a backend forked by the postmaster. */
export function withChildren(parent: number): number[] {
  const pids = [parent];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return pids;
}

function machineBusyMs(): number {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) * MS_PER_TICK;
}

export function snapshotCpu(sources: CpuSource[]) {
  const byPid = new Map<string, Map<number, number>>();
  for (const source of sources) {
    const perPid = new Map<number, number>();
    for (const pid of source.pids()) {
      const ms = processCpuMs(pid);
      if (ms !== null) perPid.set(pid, ms);
    }
    byPid.set(source.name, perPid);
  }
  return { byPid, machineBusy: machineBusyMs(), at: Date.now() };
}

export function cpuBetween(before: ReturnType<typeof snapshotCpu>, after: ReturnType<typeof snapshotCpu>): CpuUsage {
  const bySource = new Map<string, number>();
  for (const [name, perPid] of after.byPid) {
    let ms = 0;
    for (const [pid, now] of perPid) ms += now - (before.byPid.get(name)?.get(pid) ?? 0);
    bySource.set(name, ms);
  }
  return { bySource, machineBusy: after.machineBusy - before.machineBusy, wall: after.at - before.at };
}

/** The embedded Postgres of a stack in `dataDir`; its backends are its children. */
export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

/** The Temporal dev server of a stack in `dataDir` (0 when there is none). */
export function temporalPid(dataDir: string): number {
  try {
    return Number(readFileSync(join(dataDir, 'temporal', 'temporal.pid'), 'utf8'));
  } catch {
    return 0;
  }
}

/** The processes of a stack: every child (services, worker, extra processes), Temporal, Postgres with its backends, and this process. */
export function stackCpuSources(bench: Bench): CpuSource[] {
  const postmaster = postmasterPid(bench.dataDir);
  return [
    ...bench.stack.children.map((child) => ({ name: child.name, pids: () => [child.pid] })),
    { name: 'Temporal', pids: () => [temporalPid(bench.dataDir)] },
    { name: 'Postgres', pids: () => withChildren(postmaster) },
    { name: 'bench', pids: () => [process.pid] },
  ];
}

/** Share (0–1) of the machine's CPUs used by processes not among the counted sources. */
export function otherProcessesShare(usage: CpuUsage): number {
  const counted = [...usage.bySource.values()].reduce((a, b) => a + b, 0);
  return Math.max(0, usage.machineBusy - counted) / (usage.wall * cpus().length);
}

/** measureLoad, counting the CPU time of `sources` during the measured run (null without /proc). */
export async function measureLoadWithCpu(target: LoadTarget, timing: LoadTiming, sources: CpuSource[]): Promise<LoadRow & { cpu: CpuUsage | null }> {
  const snapshots: { before?: ReturnType<typeof snapshotCpu> } = {};
  const row = await measureLoad(target, timing, () => {
    if (HAS_PROC) snapshots.before = snapshotCpu(sources);
  });
  return { ...row, cpu: snapshots.before ? cpuBetween(snapshots.before, snapshotCpu(sources)) : null };
}

/**
 * Resident memory in bytes of a group of processes, from /proc (null once none is left): VmRSS for
 * one process; for several (Postgres: the postmaster and its backends, which share their buffers)
 * the sum of a field of smaps_rollup, by default PSS, which splits each shared page among the
 * processes that map it, so shared memory is counted once (`Pss_Anon`: private memory only,
 * `Pss_Shmem`: the shared memory they touched).
 */
export function memoryOf(pids: number[], groupField: 'Pss' | 'Pss_Anon' | 'Pss_Shmem' = 'Pss'): number | null {
  const live = pids.filter((pid) => pid > 0);
  const field = (file: string, name: string) => {
    try {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'));
      return match ? Number(match[1]) * 1024 : null;
    } catch {
      return null;
    }
  };
  if (live.length === 1) return field(`/proc/${live[0]}/status`, 'VmRSS');
  const values = live.map((pid) => field(`/proc/${pid}/smaps_rollup`, groupField)).filter((v): v is number => v !== null);
  return values.length ? values.reduce((a, b) => a + b, 0) : null;
}

export function machineDescription(): string {
  const cpu = cpus();
  return `node ${process.version}, ${platform()}/${arch()}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM`;
}

/** The p-th percentile (0–100) of some numbers, nearest rank; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Other test or CI runs on this machine (they share its CPUs and skew every number): their
 * command lines, or an empty list. Linux/macOS `pgrep`; empty where it is missing.
 */
export function otherWorkloads(): string[] {
  try {
    return execFileSync('pgrep', ['-af', 'test-run.ts|ci/run|devstack/src/start.ts'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith(`${process.pid} `));
  } catch {
    return [];
  }
}

/** A line for a report when other workloads were seen at the start or the end of a run. */
export function loadNote(seen: string[]): string[] {
  if (seen.length === 0) return [];
  return ['', `Measured under load: other test/CI processes were running (${[...new Set(seen)].length} seen), so the numbers are low.`];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds since `started` (performance.now()), one decimal. */
export const secondsSince = (started: number) => ((performance.now() - started) / 1000).toFixed(1);

/** The URL of a `Link` header's rel="next", or null. */
export function nextLink(header: string | null): string | null {
  const match = /<([^>]+)>;\s*rel="next"/.exec(header ?? '');
  return match ? match[1]! : null;
}

/** An EXPLAIN's top node with its buffers, the node reading `table` with its condition and buffers, and the timings. */
export function planSummary(plan: string[], table: string): string[] {
  const summary: string[] = [];
  plan.forEach((line, i) => {
    const node = line.trim().replace(/^->\s*/, '');
    if (i === 0) {
      summary.push(node);
      if (plan[1]?.trim().startsWith('Buffers:')) summary.push(`  ${plan[1].trim()}`);
    } else if (node.includes(` on ${table} `)) {
      summary.push(`… ${node}`);
      for (const detail of plan.slice(i + 1)) {
        const text = detail.trim();
        if (text.startsWith('->') || /^(Planning|Execution)/.test(text)) break;
        if (/^(Index Cond|Filter|Rows Removed by Filter|Buffers):/.test(text)) summary.push(`  ${text}`);
      }
    } else if (/^(Planning|Execution) Time/.test(node)) summary.push(node);
  });
  return summary;
}
