import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { step, warn } from '@hireloop/devstack/log';
import { DATA_DIR, ROOT } from '@hireloop/devstack/paths';
import { freePort } from '@hireloop/devstack/ports';
import { onStopSignal } from '@hireloop/devstack/signals';
import { startStack, type Stack } from '@hireloop/devstack/stack';
import { createIdentityClient } from '@hireloop/identity/client';
import { internalKey, rethrowServiceError, signInternalToken } from '@hireloop/platform';

/**
 * `npm run bench`: GET /api/v1/me three ways against one throw-away stack, side by side —
 * through the gateway (HTTP hop to identity, key look-up + rate-limit upsert), the identity
 * service's own tRPC endpoint (the same verification without the gateway), and a plain
 * Express + pg handler (one SELECT, the floor). Loopback only, about a minute in all.
 * On Linux it also counts the CPU time each process spends per request (from /proc), which says
 * where the time goes and how much of the machine something else was using meanwhile.
 */
const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const DURATION_SECONDS = 10;

interface Target {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Checks one response body before measuring, so a wrong setup never gets benchmarked. */
  answersCorrectly: (body: unknown) => boolean;
}

interface Row {
  target: string;
  result: Result;
  /** CPU ms spent during the measured run, by process group; null without /proc. */
  cpu: CpuUsage | null;
}

/** A group of processes whose CPU time is counted: one service, or Postgres with its backends. */
interface CpuSource {
  name: string;
  pids: () => number[];
}

interface CpuUsage {
  bySource: Map<string, number>;
  /** CPU ms of the whole machine (every CPU) not spent idle, and wall ms. */
  machineBusy: number;
  wall: number;
}

const HAS_PROC = existsSync('/proc/self/stat');
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
function withChildren(parent: number): number[] {
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

function snapshotCpu(sources: CpuSource[]) {
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

function cpuBetween(before: ReturnType<typeof snapshotCpu>, after: ReturnType<typeof snapshotCpu>): CpuUsage {
  const bySource = new Map<string, number>();
  for (const [name, perPid] of after.byPid) {
    let ms = 0;
    for (const [pid, now] of perPid) ms += now - (before.byPid.get(name)?.get(pid) ?? 0);
    bySource.set(name, ms);
  }
  return { bySource, machineBusy: after.machineBusy - before.machineBusy, wall: after.at - before.at };
}

/** One request must answer 200 with the expected body before the target is measured. */
async function verifyTarget(target: Target): Promise<void> {
  const res = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body ?? null });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* reported below */
  }
  if (res.status !== 200 || !target.answersCorrectly(body)) {
    throw new Error(`${target.name} answered ${res.status} ${text.slice(0, 300)}; expected 200 with a valid body.`);
  }
}

async function measure(target: Target, cpuSources: CpuSource[]): Promise<Row> {
  const options = { url: target.url, method: target.method, headers: target.headers, body: target.body, connections: CONNECTIONS, title: target.name };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  const before = HAS_PROC ? snapshotCpu(cpuSources) : null;
  const result = await autocannon({ ...options, duration: DURATION_SECONDS });
  const cpu = before ? cpuBetween(before, snapshotCpu(cpuSources)) : null;
  return { target: target.name, result, cpu };
}

function markdownReport(rows: Row[], startedAt: Date): string {
  const cpu = cpus();
  const lines = [
    `Command: \`npm run bench\` (autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per target, loopback)`,
    `Date: ${startedAt.toISOString()}`,
    `Machine: node ${process.version}, ${platform()}/${arch()}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
    '',
    '| target | requests/s (mean) | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(({ target, result }) =>
      `| ${target} | ${Math.round(result.requests.mean)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`),
  ];
  const failures = rows.filter(({ result }) => result.errors > 0 || result.timeouts > 0);
  for (const { target, result } of failures) lines.push('', `${target}: ${result.errors} connection errors, ${result.timeouts} timeouts.`);
  const names = [...(rows[0]?.cpu?.bySource.keys() ?? [])];
  if (names.length > 0) {
    lines.push(
      '',
      'CPU time per request (µs), by process, during the measured run; the last column is the share of the',
      `machine's ${cpu.length} CPUs used by processes not counted here (other load skews the numbers above):`,
      '',
      `| target | ${names.join(' | ')} | total | other processes |`,
      `|---|${names.map(() => '---:|').join('')}---:|---:|`,
      ...rows.map(({ target, result, cpu: usage }) => {
        if (!usage) return `| ${target} |`;
        const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, result.requests.total));
        const counted = [...usage.bySource.values()].reduce((a, b) => a + b, 0);
        const other = Math.max(0, usage.machineBusy - counted) / (usage.wall * cpu.length);
        return `| ${target} | ${names.map((n) => perRequest(usage.bySource.get(n) ?? 0)).join(' | ')} | ${perRequest(counted)} | ${Math.round(other * 100)} % |`;
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

const dataDir = join(DATA_DIR, 'bench-stack');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const logFile = join(dataDir, 'stack.log');
const logStream = createWriteStream(logFile);

let stack: Stack | null = null;
let exitCode = 1;
onStopSignal(() => void stack?.stop().then(() => process.exit(130)));
try {
  const startedAt = new Date();
  step(`Starting a benchmark stack (process output in ${relative(ROOT, logFile)})`);
  stack = await startStack({
    mode: 'test',
    dataDir,
    // Always a throw-away database and Temporal, whatever the shell points at.
    env: { ...process.env, DATABASE_URL: undefined, TEMPORAL_ADDRESS: undefined, NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    log: (name) => (line) => logStream.write(`${name.padEnd(10)}| ${line}\n`),
  });
  const { env } = stack;
  const secret = env['INTERNAL_AUTH_SECRET']!;
  // An organization of its own rather than the demo one: the benchmark needs nothing the demo seeds.
  const identity = createIdentityClient(env['IDENTITY_URL']!, secret);
  const organization = await identity.system.organizations.create.mutate({ name: 'Benchmark' }).catch(rethrowServiceError);
  // A limit far above what loopback can reach, so every measured request is a 200.
  const apiKey = await identity
    .forOrganization(organization.id)
    .apiKeys.create.mutate({ name: 'bench', scopes: ['read'], rateLimitPerMinute: 1_000_000 })
    .catch(rethrowServiceError);
  const internalToken = await signInternalToken(internalKey(secret), { sub: 'system', org: null, scopes: ['read', 'write', 'admin'] }, 3600);
  const plainPort = await freePort();
  const plain = await stack.startProcess('plain-me', 'gateway/bench/plain-me-server.ts', { PLAIN_ME_PORT: String(plainPort) });
  const pidOf = (name: string) => stack?.children.find((c) => c.name === name)?.pid ?? 0;
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const cpuSources: CpuSource[] = [
    { name: 'gateway', pids: () => [pidOf('gateway')] },
    { name: 'identity', pids: () => [pidOf('identity')] },
    { name: 'plain Express', pids: () => [plain.pid] },
    { name: 'Postgres', pids: () => withChildren(postmaster) },
    { name: 'autocannon', pids: () => [process.pid] },
  ];

  const isMe = (body: unknown) => (body as { data?: { key?: { id?: string } } } | null)?.data?.key?.id === apiKey.id;
  const targets: Target[] = [
    {
      name: 'gateway `GET /api/v1/me`',
      url: `http://127.0.0.1:${env['GATEWAY_PORT']}/api/v1/me`,
      method: 'GET',
      headers: { authorization: `Bearer ${apiKey.key}` },
      answersCorrectly: isMe,
    },
    {
      name: 'identity tRPC `apiKeys.authenticate`',
      url: `http://127.0.0.1:${env['IDENTITY_PORT']}/trpc/apiKeys.authenticate`,
      method: 'POST',
      headers: { authorization: `Bearer ${internalToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key: apiKey.key }),
      answersCorrectly: (body) => {
        const data = (body as { result?: { data?: { status?: string; key?: { id?: string }; rateLimit?: { allowed?: boolean } } } } | null)?.result?.data;
        return data?.status === 'valid' && data.key?.id === apiKey.id && data.rateLimit?.allowed === true;
      },
    },
    {
      name: 'plain Express + pg',
      url: `http://127.0.0.1:${plainPort}/api/v1/me`,
      method: 'GET',
      headers: { authorization: `Bearer ${apiKey.key}` },
      answersCorrectly: isMe,
    },
  ];

  const rows: Row[] = [];
  for (const target of targets) {
    await verifyTarget(target);
    step(`Measuring ${target.name}: ${WARMUP_SECONDS} s warm-up, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
    rows.push(await measure(target, cpuSources));
  }

  const report = markdownReport(rows, startedAt);
  writeFileSync(join(dataDir, 'results.md'), report);
  process.stdout.write(`\n${report}`);
  exitCode = 0;
} catch (err) {
  warn(`benchmark failed: ${(err as Error).message} (see ${relative(ROOT, logFile)})`);
} finally {
  await stack?.stop();
  logStream.end();
}
process.exit(exitCode);
