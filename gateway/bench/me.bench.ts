import { cpus } from 'node:os';
import { join } from 'node:path';
import { step } from '@hireloop/devstack/log';
import { freePort } from '@hireloop/devstack/ports';
import { internalTokenKeys, signInternalToken } from '@hireloop/platform';
import {
  benchDatabase, failureNotes, machineDescription, measureLoadWithCpu, newOrganization, postmasterPid, runBench, verifyTarget, withChildren,
  type Bench, type CpuSource, type CpuUsage, type LoadRow, type LoadTarget,
} from './bench-kit.js';

/**
 * `npm run bench`: GET /api/v1/me three ways against one throw-away stack, side by side —
 * through the gateway (HTTP hop to identity, key look-up + rate-limit upsert), the identity
 * service's own tRPC endpoint (the same verification without the gateway), and a plain
 * Express + pg handler (one SELECT, the floor); then `POST /api/v1/positions` through the
 * gateway, a write: the key check, one call to recruiting (an insert with its outbox event and
 * audit row), output validation. Loopback only, about a minute in all.
 * On Linux it also counts the CPU time each process spends per request (from /proc), which says
 * where the time goes and how much of the machine something else was using meanwhile.
 */
const CONNECTIONS = 10;
const WARMUP_SECONDS = 3;
const DURATION_SECONDS = 10;
/**
 * Before and after in one run: BENCH_BEFORE_TREE names another checkout (relative to this one,
 * e.g. `../before`, with its own `npm ci`) whose gateway is started beside this one, on the same
 * services, with a database of its own on the same cluster (a gateway refuses a schema migrated
 * by a newer tree, and its tables hold nothing these rows read); each gateway row is then measured for both, alternately, BENCH_ROUNDS
 * times (default 1), so a busy machine disturbs both alike.
 */
const BEFORE_TREE = process.env['BENCH_BEFORE_TREE'];
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 1);

interface Target extends LoadTarget {
  /** Checks one response body before measuring, so a wrong setup never gets benchmarked. */
  answersCorrectly: (body: unknown) => boolean;
  /** The status every request should get (200 unless said). */
  status?: number;
}

interface Row extends LoadRow {
  /** CPU ms spent during the measured run, by process group; null without /proc. */
  cpu: CpuUsage | null;
}

function markdownReport(rows: Row[], startedAt: Date): string {
  const cpu = cpus();
  const lines = [
    `Command: \`npm run bench\` (autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per target, loopback)`,
    `Date: ${startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    '| target | requests/s (mean) | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(({ target, result }) =>
      `| ${target} | ${Math.round(result.requests.mean)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`),
  ];
  for (const note of failureNotes(rows)) lines.push('', note);
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

/** A fresh database on the stack's cluster, as its superuser; its URL. */
async function ownDatabase(bench: Bench, name: string): Promise<string> {
  const admin = await benchDatabase(bench, 'bench-me');
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  const url = new URL(bench.env['DATABASE_URL']!);
  url.pathname = `/${name}`;
  return url.toString();
}

await runBench('bench-stack', async (bench) => {
  const { stack, env, dataDir, startedAt, gatewayUrl } = bench;
  const secret = env['INTERNAL_TOKEN_KEYS']!;
  // `read` for /me, `write` for the positions.
  const { apiKey } = await newOrganization(bench, 'Benchmark', ['read', 'write']);
  const internalToken = await signInternalToken(internalTokenKeys(secret), { sub: 'system', org: null, scopes: ['read', 'write', 'admin'] }, 3600);
  const plainPort = await freePort();
  const plain = await stack.startProcess('plain-me', 'gateway/bench/plain-me-server.ts', { PLAIN_ME_PORT: String(plainPort) });
  const pidOf = (name: string) => stack.children.find((c) => c.name === name)?.pid ?? 0;
  const beforePort = await freePort();
  const before = BEFORE_TREE ? await stack.startProcess('gateway-before', join(BEFORE_TREE, 'gateway/src/index.ts'), { GATEWAY_PORT: String(beforePort), GATEWAY_DATABASE_URL: await ownDatabase(bench, 'bench_gateway_before') }) : null;
  const postmaster = postmasterPid(dataDir);
  const cpuSources: CpuSource[] = [
    { name: 'gateway', pids: () => [pidOf('gateway')] },
    ...(before ? [{ name: 'gateway (before)', pids: () => [before.pid] }] : []),
    { name: 'identity', pids: () => [pidOf('identity')] },
    { name: 'recruiting', pids: () => [pidOf('recruiting')] },
    { name: 'integrations', pids: () => [pidOf('integrations')] },
    { name: 'plain Express', pids: () => [plain.pid] },
    { name: 'Postgres', pids: () => withChildren(postmaster) },
    { name: 'autocannon', pids: () => [process.pid] },
  ];

  const isMe = (body: unknown) => (body as { data?: { key?: { id?: string } } } | null)?.data?.key?.id === apiKey.id;
  const gatewayTargets = (base: string, label: string): Target[] => [
    {
      name: `gateway${label} \`GET /api/v1/me\``,
      url: `${base}/api/v1/me`,
      method: 'GET',
      headers: { authorization: `Bearer ${apiKey.key}` },
      answersCorrectly: isMe,
    },
    {
      name: `gateway${label} \`POST /api/v1/positions\``,
      url: `${base}/api/v1/positions`,
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark position', department: 'Engineering', interviewQuestions: ['Tell us about a system you built.'] }),
      status: 201,
      answersCorrectly: (body) => (body as { data?: { id?: string; title?: string } } | null)?.data?.title === 'Benchmark position',
    },
  ];
  const [meTarget, positionsTarget] = gatewayTargets(gatewayUrl, '');
  const beforeTargets = before ? gatewayTargets(`http://127.0.0.1:${beforePort}`, ` (before: ${BEFORE_TREE})`) : [];
  // With a before tree, the two gateways swap places every round, so neither is always the one
  // measured first (on colder caches) or second.
  const gatewayRounds = Array.from({ length: ROUNDS }, (_, round) =>
    [[meTarget!, beforeTargets[0]], [positionsTarget!, beforeTargets[1]]].flatMap((pair) => (round % 2 ? pair.reverse() : pair)),
  ).flat().filter((t): t is Target => Boolean(t));
  const targets: Target[] = [
    ...(before ? [] : gatewayRounds.splice(0, 1)),
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
    ...gatewayRounds,
  ];

  const rows: Row[] = [];
  for (const target of targets) {
    await verifyTarget(target, target.answersCorrectly, target.status);
    step(`Measuring ${target.name}: ${WARMUP_SECONDS} s warm-up, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
    rows.push(await measureLoadWithCpu(target, { connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, durationSeconds: DURATION_SECONDS }, cpuSources));
  }
  return markdownReport(rows, startedAt);
});
