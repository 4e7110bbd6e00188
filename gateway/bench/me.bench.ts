import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { bootstrapDemo } from '@hireloop/devstack/bootstrap';
import { step, warn } from '@hireloop/devstack/log';
import { DATA_DIR, ROOT } from '@hireloop/devstack/paths';
import { freePort } from '@hireloop/devstack/ports';
import { localSecrets } from '@hireloop/devstack/secrets';
import { onStopSignal } from '@hireloop/devstack/signals';
import { startStack, type Stack } from '@hireloop/devstack/stack';
import { createIdentityClient } from '@hireloop/identity/client';
import { internalKey, rethrowServiceError, signInternalToken } from '@hireloop/platform';

/**
 * `npm run bench`: GET /api/v1/me three ways against one throw-away stack, side by side —
 * through the gateway (HTTP hop to identity, key look-up + rate-limit upsert), the identity
 * service's own tRPC endpoint (the same verification without the gateway), and a plain
 * Express + pg handler (one SELECT, the floor). Loopback only, about a minute in all.
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

async function measure(target: Target): Promise<Result> {
  const options = { url: target.url, method: target.method, headers: target.headers, body: target.body, connections: CONNECTIONS, title: target.name };
  await autocannon({ ...options, duration: WARMUP_SECONDS });
  return autocannon({ ...options, duration: DURATION_SECONDS });
}

function markdownReport(rows: Row[], startedAt: Date, loadBefore: number[]): string {
  const cpu = cpus();
  const lines = [
    `Command: \`npm run bench\` (autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per target, loopback)`,
    `Date: ${startedAt.toISOString()}`,
    `Machine: node ${process.version}, ${platform()}/${arch()}, ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, load average ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min) before measuring`,
    '',
    '| target | requests/s (mean) | p50 ms | p99 ms | non-2xx |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(({ target, result }) =>
      `| ${target} | ${Math.round(result.requests.mean)} | ${result.latency.p50} | ${result.latency.p99} | ${result.non2xx} |`),
  ];
  const failures = rows.filter(({ result }) => result.errors > 0 || result.timeouts > 0);
  for (const { target, result } of failures) lines.push('', `${target}: ${result.errors} connection errors, ${result.timeouts} timeouts.`);
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
  const demo = await bootstrapDemo(env['IDENTITY_URL']!, secret, localSecrets(dataDir).demoAdminPassword);
  // A limit far above what loopback can reach, so every measured request is a 200.
  const apiKey = await createIdentityClient(env['IDENTITY_URL']!, secret)
    .forOrganization(demo.organization.id)
    .apiKeys.create.mutate({ name: 'bench', scopes: ['read'], rateLimitPerMinute: 1_000_000 })
    .catch(rethrowServiceError);
  const internalToken = await signInternalToken(internalKey(secret), { sub: 'system', org: null, scopes: ['read', 'write', 'admin'] }, 3600);
  const plainPort = await freePort();
  await stack.startProcess('plain-me', 'gateway/bench/plain-me-server.ts', { PLAIN_ME_PORT: String(plainPort) });

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

  // Anything else busy on the machine skews every number; the report says how busy it was.
  const loadBefore = loadavg();
  const rows: Row[] = [];
  for (const target of targets) {
    await verifyTarget(target);
    step(`Measuring ${target.name}: ${WARMUP_SECONDS} s warm-up, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
    rows.push({ target: target.name, result: await measure(target) });
  }

  const report = markdownReport(rows, startedAt, loadBefore);
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
