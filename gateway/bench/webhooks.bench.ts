import { cpus } from 'node:os';
import type pg from 'pg';
import { serviceFetch } from '@hireloop/platform/service-fetch';
import { step } from '@hireloop/devstack/log';
import {
  benchDatabase, cpuBetween, HAS_PROC, loadNote, machineDescription, newOrganization, otherWorkloads, percentile, postmasterPid, runBench, sleep, snapshotCpu, temporalPid, withChildren,
  type Bench, type BenchOrganization, type CpuSource, type CpuUsage,
} from './bench-kit.js';
import { startReceiver, type Arrival, type Receiver } from './webhook-receiver.js';
import { longReplayReport, stormReport } from './webhook-storm.js';

/**
 * `npm run bench:webhooks` (issues 4 and 9): webhook deliveries end to end — event committed (the
 * POST /api/v1/positions response) → the receiver got it — with 1, 10 and 100 webhooks subscribed
 * to `position.created`, each in an organization of its own. A burst of positions measures
 * deliveries per second and the latency under that backlog; a few single events, each waited for,
 * measure the latency of an idle pipeline. With 1 webhook, a replay of the burst's events (one
 * POST /webhooks/{id}/replay queues them all in one transaction) measures the delivery path
 * without the event creation in front of it.
 *
 * Two variants of the 10-webhook run (issue 9): 10 % of the receivers answer 500 to the first
 * attempt of each delivery (the dispatcher hands those to Temporal retries, which then succeed),
 * and one receiver never answers (each attempt runs into the delivery deadline). They report the
 * healthy receivers' rate and latency, to set beside the plain run, and what became of the others.
 *
 * Then issue 19's rows (webhook-storm.ts): a replay of a 30-day window of 100,000 events, and a
 * storm of 100 dead endpoints and 2,000 events with evaluations and erasures in the middle
 * (BENCH_WEBHOOKS_STORM=0 leaves them out; BENCH_WEBHOOKS_ONLY=issue19 runs only them).
 *
 * The receiver (webhook-receiver.ts) runs in a child process, so receiving
 * never waits on the bench's event loop; it stamps each arrival with Date.now() and hands the
 * list over IPC when asked. Timestamps the pipeline leaves in the database (outbox, workflow
 * outbox) split each delivery's latency into stages, and /proc says what each process spent.
 */
interface RunSpec {
  label: string;
  webhooks: number;
  burst: number;
  /** Receivers (of `webhooks`) that answer 500 to each delivery's first attempt, 200 after. */
  failing?: number;
  /** Receivers (of `webhooks`) that never answer. */
  hanging?: number;
  /** Replay the burst's events to the (single) webhook afterwards and measure that too. */
  replay?: boolean;
}
/** BENCH_WEBHOOKS_SCALE=0.2 runs every burst at a fifth of its size (a quick try on a busy machine). */
const SCALE = Number(process.env['BENCH_WEBHOOKS_SCALE'] ?? '1');
const scaled = (events: number) => Math.max(2, Math.round(events * SCALE));
const RUNS: RunSpec[] = [
  { label: 'n1', webhooks: 1, burst: scaled(200), replay: true },
  { label: 'n10', webhooks: 10, burst: scaled(50) },
  { label: 'n100', webhooks: 100, burst: scaled(10) },
];
const VARIANTS: RunSpec[] = [
  { label: 'n10-failing', webhooks: 10, burst: scaled(50), failing: 1 },
  { label: 'n10-hanging', webhooks: 10, burst: scaled(50), hanging: 1 },
];
/** Events through one webhook before anything is measured. */
const WARMUP_EVENTS = 50;
/** Single events after each burst, each waited for before the next. */
const IDLE_EVENTS = 5;
/** Positions created at once during a burst, so the burst outpaces delivery. */
const POST_CONCURRENCY = 16;
const DELIVERY_TIMEOUT_MS = 180_000;
/** How long the failing receivers' deliveries may take to arrive through Temporal retries. */
const RETRIED_TIMEOUT_MS = 120_000;

/**
 * The bench's requests go through the platform's service transport (node:http over a keep-alive
 * agent), not the global fetch, so that making them takes as little as possible of the CPUs the
 * stack runs on (fetch cost the bench ~1.5 ms of CPU per POST, as much as a service did).
 */
async function api(base: string, key: string, method: 'POST' | 'GET' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; body: { data?: { id?: string; count?: number } } & Record<string, unknown> }> {
  const res = await serviceFetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as { data?: { id?: string } } };
}

/** Waits until `done(arrivals)`; returns the arrivals then (or at the deadline). */
async function waitFor(read: () => Promise<Arrival[]>, done: (arrivals: Arrival[]) => boolean, timeoutMs: number): Promise<Arrival[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const arrivals = await read();
    if (done(arrivals) || Date.now() > deadline) return arrivals;
    await sleep(100);
  }
}

/** Distinct deliveries of position.created answered 200 (a retried or repeated delivery counts once, first arrival). */
function firstDeliveries(arrivals: Arrival[]): Map<string, Arrival> {
  const first = new Map<string, Arrival>();
  for (const a of arrivals) {
    if (a.type !== 'position.created' || a.answered !== 200) continue;
    const key = `${a.eventId} ${a.path}`;
    if (!first.has(key) || first.get(key)!.at > a.at) first.set(key, a);
  }
  return first;
}

interface RunResult {
  spec: RunSpec;
  webhooks: number;
  /** Webhooks whose receiver answers 200 at once: the measured deliveries are theirs. */
  healthy: number;
  events: number;
  deliveries: number;
  expected: number;
  repeated: number;
  /** From the first POST sent to the last delivery's arrival. */
  spanMs: number;
  /** How long creating the burst's positions took. */
  postMs: number;
  latencies: number[];
  idleLatencies: number[];
  idleExpected: number;
  /** Per delivery, ms spent in each stage of the pipeline (STAGES order). */
  burstStages: number[][];
  idleStages: number[][];
  /** CPU during the burst (first POST → last arrival), by process. */
  cpu: CpuUsage | null;
  /** The failing receivers' burst deliveries: how many arrived (answered 200) and when, after commit. */
  retried: { expected: number; latencies: number[] } | null;
  /** Requests the hanging receivers got during the burst and idle runs (none answered). */
  hung: { attempts: number } | null;
  /** The replay of the burst's events: latency from the replay's 202 to each arrival. */
  replay: { expected: number; latencies: number[]; spanMs: number; cpu: ReturnType<typeof cpuBetween> | null } | null;
}

/**
 * Where a delivery's time goes, from timestamps the pipeline writes (transaction start times):
 * recruiting.outbox created_at (the event, written with the change) and published_at (claimed by
 * recruiting's outbox publisher); integrations.deliveries created_at (the fan-out's insert, after
 * the publisher's call to events.ingest); and the arrival at the receiver (dispatcher claim,
 * signing, HTTP).
 */
const STAGES = ['event → publisher claimed it', '→ fan-out queued the delivery', '→ receiver got it (dispatcher claim, sign, HTTP)'];

interface StageRow {
  event_id: string;
  webhook_id: string;
  committed: Date;
  published: Date;
  queued: Date;
}

async function stagesOf(db: pg.Client, organizationId: string, deliveries: Arrival[], webhookIdOf: Map<string, string>): Promise<number[][]> {
  const { rows } = await db.query<StageRow>(
    `select o.id as event_id, d.webhook_id, o.created_at as committed, o.published_at as published, d.created_at as queued
     from recruiting.outbox o join integrations.deliveries d on d.event_id = o.id
     where o.organization_id = $1 and d.organization_id = $1 and o.type = 'position.created'`,
    [organizationId],
  );
  const byDelivery = new Map(rows.map((r) => [`${r.event_id} ${r.webhook_id}`, r]));
  const stages: number[][] = [];
  for (const a of deliveries) {
    const row = byDelivery.get(`${a.eventId} ${webhookIdOf.get(a.path)}`);
    if (!row) continue;
    const marks = [row.committed.getTime(), row.published.getTime(), row.queued.getTime(), a.at];
    stages.push(marks.slice(1).map((mark, i) => mark - marks[i]!));
  }
  return stages;
}

async function createPositions(gatewayUrl: string, org: BenchOrganization, count: number, concurrency: number): Promise<Map<string, number>> {
  const committedAt = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = ++next;
      const res = await api(gatewayUrl, org.apiKey.key, 'POST', '/positions', { title: `Benchmark position ${n}` });
      const at = Date.now();
      if (res.status !== 201 || !res.body.data?.id) throw new Error(`POST /positions answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      committedAt.set(res.body.data.id, at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return committedAt;
}

interface Context {
  bench: Bench;
  db: pg.Client;
  receiver: Receiver;
  cpuSources: CpuSource[];
}

const isHealthy = (path: string) => !path.includes('/fail-') && !path.includes('/hang-');

async function runWith({ bench, db, receiver, cpuSources }: Context, spec: RunSpec): Promise<RunResult> {
  const { gatewayUrl } = bench;
  const { label, webhooks, burst } = spec;
  const failing = spec.failing ?? 0;
  const hanging = spec.hanging ?? 0;
  const healthy = webhooks - failing - hanging;
  const org = await newOrganization(bench, `Benchmark webhooks ${label}`, ['read', 'write', 'admin']);
  const prefix = `/hooks/${label}/`;
  const read = () => receiver.arrivals(prefix);
  const kind = (i: number) => (i < failing ? 'fail-' : i < failing + hanging ? 'hang-' : '');

  step(`${label}, ${webhooks} webhook(s)${failing ? `, ${failing} failing first attempts` : ''}${hanging ? `, ${hanging} hanging` : ''}: registering, subscribed to position.created`);
  const webhookIdOf = new Map<string, string>();
  for (let i = 0; i < webhooks; i++) {
    const path = `${prefix}${kind(i)}${i}`;
    const res = await api(gatewayUrl, org.apiKey.key, 'POST', '/webhooks', { url: `http://127.0.0.1:${receiver.port}${path}`, events: ['position.created'] });
    if (res.status !== 201 || !res.body.data?.id) throw new Error(`POST /webhooks answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    webhookIdOf.set(path, res.body.data.id);
  }
  // Every ping answered 200 (a failing receiver's through its first retry); the hanging ones never are.
  const pinged = (a: Arrival[]) => new Set(a.filter((x) => x.type === 'webhook.ping' && x.answered === 200).map((x) => x.path)).size;
  const pings = await waitFor(read, (a) => pinged(a) === webhooks - hanging, 60_000);
  if (pinged(pings) !== webhooks - hanging) throw new Error(`only ${pinged(pings)} of ${webhooks - hanging} pings arrived`);
  // Let the pipeline settle: nothing new for a second (the hanging receivers keep being retried).
  const answered = async () => (await read()).filter((a) => a.answered).length;
  let seen = await answered();
  for (;;) {
    await sleep(1000);
    const now = await answered();
    if (now === seen) break;
    seen = now;
  }

  step(`${label}, ${webhooks} webhook(s): ${burst} positions, ${POST_CONCURRENCY} at a time → ${burst * healthy} deliveries to healthy receivers expected`);
  const cpuBefore = HAS_PROC ? snapshotCpu(cpuSources) : null;
  const burstStarted = Date.now();
  const committedAt = await createPositions(gatewayUrl, org, burst, POST_CONCURRENCY);
  const postMs = Date.now() - burstStarted;
  const expected = burst * healthy;
  const ofBurst = (arrivals: Arrival[], which: (path: string) => boolean) =>
    [...firstDeliveries(arrivals).values()].filter((a) => a.dataId && committedAt.has(a.dataId) && which(a.path));
  const arrivals = await waitFor(read, (a) => ofBurst(a, isHealthy).length >= expected, DELIVERY_TIMEOUT_MS);
  const cpu = cpuBefore ? cpuBetween(cpuBefore, snapshotCpu(cpuSources)) : null;
  const burstDone = Date.now();
  const delivered = ofBurst(arrivals, isHealthy);
  const latencies = delivered.map((a) => a.at - committedAt.get(a.dataId!)!);
  const lastArrival = Math.max(...delivered.map((a) => a.at));
  const repeated = arrivals.filter((a) => a.type === 'position.created' && a.answered === 200 && isHealthy(a.path) && a.dataId && committedAt.has(a.dataId)).length - delivered.length;

  let retried: RunResult['retried'] = null;
  if (failing) {
    step(`${label}: waiting for the failing receivers' ${burst * failing} deliveries (Temporal retries)`);
    const isFailing = (path: string) => path.includes('/fail-');
    const got = ofBurst(await waitFor(read, (a) => ofBurst(a, isFailing).length >= burst * failing, RETRIED_TIMEOUT_MS), isFailing);
    retried = { expected: burst * failing, latencies: got.map((a) => a.at - committedAt.get(a.dataId!)!) };
  }

  let replay: RunResult['replay'] = null;
  if (spec.replay) {
    const [path, webhookId] = [...webhookIdOf][0]!;
    step(`${label}: replaying the burst's ${burst} events to ${path}`);
    const window = { since: new Date(burstStarted - 1000).toISOString(), until: new Date(burstDone).toISOString() };
    const replayCpuBefore = HAS_PROC ? snapshotCpu(cpuSources) : null;
    const sent = Date.now();
    const res = await api(gatewayUrl, org.apiKey.key, 'POST', `/webhooks/${webhookId}/replay`, window);
    const accepted = Date.now();
    if (res.status !== 202) throw new Error(`POST /webhooks/{id}/replay answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const again = (a: Arrival[]) => {
      const first = new Map<string, number>();
      for (const x of a) if (x.at >= sent && x.answered === 200 && x.type === 'position.created' && x.dataId && committedAt.has(x.dataId) && !first.has(x.eventId)) first.set(x.eventId, x.at);
      return [...first.values()];
    };
    const got = again(await waitFor(read, (a) => again(a).length >= burst, DELIVERY_TIMEOUT_MS));
    const replayCpu = replayCpuBefore ? cpuBetween(replayCpuBefore, snapshotCpu(cpuSources)) : null;
    replay = { expected: burst, latencies: got.map((at) => at - accepted), spanMs: Math.max(...got) - sent, cpu: replayCpu };
  }

  step(`${label}, ${webhooks} webhook(s): ${IDLE_EVENTS} single positions, each delivered to every healthy webhook before the next`);
  const idleLatencies: number[] = [];
  const idleDeliveries: Arrival[] = [];
  for (let i = 0; i < IDLE_EVENTS; i++) {
    await sleep(500);
    const [positionId, at] = [...(await createPositions(gatewayUrl, org, 1, 1))][0]!;
    const mineOf = (a: Arrival[]) => [...firstDeliveries(a).values()].filter((x) => x.dataId === positionId && isHealthy(x.path));
    const mine = mineOf(await waitFor(read, (a) => mineOf(a).length >= healthy, 60_000));
    idleDeliveries.push(...mine);
    idleLatencies.push(...mine.map((x) => x.at - at));
  }

  let hung: RunResult['hung'] = null;
  if (hanging) {
    const all = await read();
    hung = { attempts: all.filter((a) => a.path.includes('/hang-') && a.type === 'position.created').length };
    // Deleting them cancels their pending deliveries and retry workflows, so later runs do not carry them.
    for (const [path, id] of webhookIdOf) if (path.includes('/hang-')) await api(gatewayUrl, org.apiKey.key, 'DELETE', `/webhooks/${id}`);
  }

  return {
    spec,
    webhooks,
    healthy,
    events: burst,
    deliveries: delivered.length,
    expected,
    repeated,
    spanMs: lastArrival - burstStarted,
    postMs,
    latencies,
    idleLatencies,
    idleExpected: IDLE_EVENTS * healthy,
    burstStages: await stagesOf(db, org.id, delivered, webhookIdOf),
    idleStages: await stagesOf(db, org.id, idleDeliveries, webhookIdOf),
    cpu,
    retried,
    hung,
    replay,
  };
}

/** BENCH_WEBHOOKS_ONLY=issue19: only the long replay and the storm (webhook-storm.ts), on a stack of their own. */
const ISSUE_19_ONLY = process.env['BENCH_WEBHOOKS_ONLY'] === 'issue19';

// The 100-webhook run and the storm put more webhooks in one organization than it may enable by default.
process.env['WEBHOOK_ENDPOINTS_PER_ORG_MAX'] ??= '1000';

await runBench('bench-webhooks', async (bench) => {
  const busy = otherWorkloads();
  const receiver = await startReceiver();
  bench.onCleanup(() => receiver.child.kill());
  const db = await benchDatabase(bench, 'bench-webhooks');
  const pidOf = (name: string) => bench.stack.children.find((c) => c.name === name)?.pid ?? 0;
  const postmaster = postmasterPid(bench.dataDir);
  const cpuSources: CpuSource[] = [
    ...['gateway', 'identity', 'recruiting', 'integrations', 'worker'].map((name) => ({ name, pids: () => [pidOf(name)] })),
    { name: 'Temporal', pids: () => [temporalPid(bench.dataDir)] },
    { name: 'Postgres', pids: () => withChildren(postmaster) },
    { name: 'receiver', pids: () => [receiver.child.pid ?? 0] },
    { name: 'bench', pids: () => [process.pid] },
  ];
  const context = { bench, db, receiver, cpuSources };
  if (ISSUE_19_ONLY) {
    const rows = [...(await longReplayReport(bench, db, receiver)), ...(await stormReport(bench, db, receiver))];
    busy.push(...otherWorkloads());
    return [`Command: \`BENCH_WEBHOOKS_ONLY=issue19 npm run bench:webhooks\` (issue 19's rows alone)`, `Date: ${bench.startedAt.toISOString()}`, `Machine: ${machineDescription()}`, ...rows, ...loadNote(busy)].join('\n');
  }
  // Not measured: freshly started processes spend more CPU per request until their code is warm.
  step('Warm-up (not measured)');
  await runWith(context, { label: 'warm-up', webhooks: 1, burst: scaled(WARMUP_EVENTS) });
  const results: RunResult[] = [];
  for (const spec of RUNS) results.push(await runWith(context, spec));
  const variants: RunResult[] = [];
  for (const spec of VARIANTS) variants.push(await runWith(context, spec));
  const issue19 = process.env['BENCH_WEBHOOKS_STORM'] === '0' ? [] : [...(await longReplayReport(bench, db, receiver)), ...(await stormReport(bench, db, receiver))];
  busy.push(...otherWorkloads());

  const ms = (v: number) => (Number.isNaN(v) ? '–' : String(Math.round(v)));
  const rate = (count: number, spanMs: number) => (count / (spanMs / 1000)).toFixed(1);
  const lines = [
    `Command: \`${SCALE === 1 ? '' : `BENCH_WEBHOOKS_SCALE=${SCALE} `}npm run bench:webhooks\` (positions created ${POST_CONCURRENCY} at a time through the gateway; receiver on loopback in a child process)`,
    `Date: ${bench.startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    'Burst: latency = arrival at the receiver − the POST /api/v1/positions response; deliveries/s = deliveries ÷ (last arrival − first POST sent).',
    '',
    '| webhooks (N) | events | deliveries | deliveries/s | p50 ms | p99 ms | max ms | POSTs took |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.webhooks} | ${r.events} | ${r.deliveries}${r.deliveries < r.expected ? ` of ${r.expected}` : ''} | ${rate(r.deliveries, r.spanMs)} | ${ms(percentile(r.latencies, 50))} | ${ms(percentile(r.latencies, 99))} | ${ms(Math.max(...r.latencies))} | ${(r.postMs / 1000).toFixed(1)} s |`,
    ),
  ];
  for (const r of results.filter((x) => x.replay)) {
    const p = r.replay!;
    lines.push(
      '',
      `Replay (the delivery path alone): the same ${p.expected} events replayed to the N=${r.webhooks} webhook by one POST /webhooks/{id}/replay; latency = arrival − its 202; deliveries/s = deliveries ÷ (last arrival − the POST sent):`,
      '',
      '| webhooks (N) | deliveries | deliveries/s | p50 ms | p99 ms | max ms |',
      '|---:|---:|---:|---:|---:|---:|',
      `| ${r.webhooks} | ${p.latencies.length}${p.latencies.length < p.expected ? ` of ${p.expected}` : ''} | ${rate(p.latencies.length, p.spanMs)} | ${ms(percentile(p.latencies, 50))} | ${ms(percentile(p.latencies, 99))} | ${ms(Math.max(...p.latencies))} |`,
    );
  }
  lines.push(
    '',
    `Idle: ${IDLE_EVENTS} single events per N, each created only after the previous one reached every webhook:`,
    '',
    '| webhooks (N) | deliveries | p50 ms | p99 ms | max ms |',
    '|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.webhooks} | ${r.idleLatencies.length}${r.idleLatencies.length < r.idleExpected ? ` of ${r.idleExpected}` : ''} | ${ms(percentile(r.idleLatencies, 50))} | ${ms(percentile(r.idleLatencies, 99))} | ${ms(Math.max(...r.idleLatencies))} |`,
    ),
  );
  const median = (stages: number[][], i: number) => ms(percentile(stages.map((d) => d[i]!), 50));
  lines.push(
    '',
    'Median ms per stage (from timestamps in recruiting.outbox and integrations.deliveries, which are transaction start times):',
    '',
    `| webhooks (N) | run | deliveries | ${STAGES.join(' | ')} |`,
    `|---:|---|---:|${STAGES.map(() => '---:|').join('')}`,
    ...results.flatMap((r) => [
      `| ${r.webhooks} | burst | ${r.burstStages.length} | ${STAGES.map((_, i) => median(r.burstStages, i)).join(' | ')} |`,
      `| ${r.webhooks} | idle | ${r.idleStages.length} | ${STAGES.map((_, i) => median(r.idleStages, i)).join(' | ')} |`,
    ]),
  );
  const names = cpuSources.map((c) => c.name);
  if (results.some((r) => r.cpu)) {
    const cores = cpus().length;
    lines.push(
      '',
      `CPU ms per delivery during the burst, by process; the last column is the share of the machine's ${cores} CPUs used by processes not counted here:`,
      '',
      `| webhooks (N) | ${names.join(' | ')} | total | CPU busy | other processes |`,
      `|---:|${names.map(() => '---:|').join('')}---:|---:|---:|`,
      ...[
        ...results.map(({ webhooks, deliveries, cpu }) => ({ label: String(webhooks), deliveries, cpu })),
        // The replay row: the delivery path alone (no event creation in front of it).
        ...results.filter((r) => r.replay?.cpu).map((r) => ({ label: `${r.webhooks} (replay)`, deliveries: r.replay!.latencies.length, cpu: r.replay!.cpu })),
      ].map(({ label: webhooks, deliveries, cpu }) => {
        if (!cpu) return `| ${webhooks} |`;
        const per = (v: number) => (v / Math.max(1, deliveries)).toFixed(1);
        const counted = [...cpu.bySource.values()].reduce((a, b) => a + b, 0);
        const share = (v: number) => `${Math.round((Math.max(0, v) / (cpu.wall * cores)) * 100)} %`;
        return `| ${webhooks} | ${names.map((n) => per(cpu.bySource.get(n) ?? 0)).join(' | ')} | ${per(counted)} | ${share(cpu.machineBusy)} | ${share(cpu.machineBusy - counted)} |`;
      }),
    );
  }
  const plain = new Map(results.map((r) => [r.webhooks, r]));
  const others = (r: RunResult) => {
    if (r.retried) {
      const { expected, latencies } = r.retried;
      return `${r.spec.failing} answering 500 first: ${latencies.length} of ${expected} arrived through Temporal retries, p50 ${ms(percentile(latencies, 50))} ms, last ${ms(Math.max(...latencies))} ms after commit`;
    }
    if (r.hung) return `${r.spec.hanging} never answering: ${r.hung.attempts} attempts held until the deadline, then retried; deleted after the run`;
    return 'none';
  };
  lines.push(
    '',
    'Failing and hanging receivers (same N, burst and idle runs as the plain row beside them; the figures are the healthy receivers\' deliveries):',
    '',
    '| run | webhooks (healthy) | deliveries | deliveries/s | burst p50 ms | burst p99 ms | idle p50 ms | idle p99 ms | the other receivers |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...[...new Set(variants.map((r) => plain.get(r.webhooks)))].flatMap((x) => (x ? [x] : [])).concat(variants).map(
      (x) =>
        `| ${x.retried ? `${Math.round((x.spec.failing! / x.webhooks) * 100)} % failing` : x.hung ? 'one hanging' : 'plain (above)'} | ${x.webhooks} (${x.healthy}) | ${x.deliveries}${x.deliveries < x.expected ? ` of ${x.expected}` : ''} | ${rate(x.deliveries, x.spanMs)} | ${ms(percentile(x.latencies, 50))} | ${ms(percentile(x.latencies, 99))} | ${ms(percentile(x.idleLatencies, 50))} | ${ms(percentile(x.idleLatencies, 99))} | ${others(x)} |`,
    ),
  );
  const repeated = [...results, ...variants].filter((r) => r.repeated > 0);
  if (repeated.length) lines.push('', ...repeated.map((r) => `${r.spec.label}: ${r.repeated} deliveries arrived more than once (counted once, first arrival).`));
  lines.push(...issue19, ...loadNote(busy));
  return `${lines.join('\n')}\n`;
});
