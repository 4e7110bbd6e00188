import { cpus } from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { step } from '@hireloop/devstack/log';
import {
  benchDatabase, cpuBetween, HAS_PROC, loadNote, machineDescription, newOrganization, otherWorkloads, postmasterPid, runBench, sleep, snapshotCpu, temporalPid, withChildren, type CpuSource,
} from './bench-kit.js';
import { startReceiver, type Arrival } from './webhook-receiver.js';

/**
 * `npm run bench:webhook-queue` (issues 9 and 19): many webhook retries queued behind one endpoint
 * at its concurrency cap, and what they cost Temporal and the worker while they wait.
 *
 * One endpoint, capped at `WEBHOOK_ENDPOINT_CONCURRENCY` (2 here) attempts in flight. It answers
 * 500 to the first attempt of every delivery, so each joins the endpoint's retry queue (drained by
 * the endpoint's one retry loop, `endpoint:<webhook>`; before issue 19, a `deliver:<id>` workflow
 * per delivery), and holds every retry `BENCH_QUEUE_HOLD_MS` (2 s) before answering 200. `BENCH_QUEUE_DELIVERIES`
 * (40) test events are sent to it at once (POST /webhooks/{id}/test), so their retries queue
 * behind the cap and drain at cap ÷ hold per second. Reported, once every delivery has arrived:
 * - the drain: from the first retry's arrival to the last one's answer, beside the ideal (the
 *   retries back to back on every slot), and the mean time a slot stood free between one retry's
 *   answer and the next retry's arrival;
 * - per delivery, from the Temporal histories of the endpoint's retry loop (every run of it):
 *   workflow tasks, timers fired, activities scheduled (rounds), signals received, events;
 * - CPU of Temporal, the worker, integrations and Postgres from the first test event to the last
 *   answer, per delivery.
 */
process.env['WEBHOOK_ENDPOINT_CONCURRENCY'] ??= '2';
const CAP = Number(process.env['WEBHOOK_ENDPOINT_CONCURRENCY']);
const DELIVERIES = Number(process.env['BENCH_QUEUE_DELIVERIES'] ?? '40');
const HOLD_MS = Number(process.env['BENCH_QUEUE_HOLD_MS'] ?? '2000');
const DRAIN_TIMEOUT_MS = 10 * 60_000;

async function api(base: string, key: string, method: 'POST' | 'GET', path: string, body?: unknown): Promise<{ status: number; body: { data?: { id?: string } } }> {
  const res = await fetch(`${base}/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? null : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as { data?: { id?: string } } };
}

interface HistoryCounts {
  workflowTasks: number;
  timersFired: number;
  activities: number;
  signals: number;
  events: number;
}

/** Counts the events of one workflow's history that cost Temporal and the worker work. */
async function countHistory(temporal: Client, workflowId: string, runId?: string): Promise<HistoryCounts> {
  const { events } = await temporal.workflow.getHandle(workflowId, runId).fetchHistory();
  const counts = { workflowTasks: 0, timersFired: 0, activities: 0, signals: 0, events: events?.length ?? 0 };
  for (const e of events ?? []) {
    if (e.workflowTaskCompletedEventAttributes) counts.workflowTasks++;
    if (e.timerFiredEventAttributes) counts.timersFired++;
    if (e.activityTaskScheduledEventAttributes) counts.activities++;
    if (e.workflowExecutionSignaledEventAttributes) counts.signals++;
  }
  return counts;
}

await runBench('bench-webhook-queue', async (bench) => {
  const busy = otherWorkloads();
  const receiver = await startReceiver();
  bench.onCleanup(() => receiver.child.kill());
  const db = await benchDatabase(bench, 'bench-webhook-queue');
  const connection = await Connection.connect({ address: bench.env['TEMPORAL_ADDRESS']! });
  bench.onCleanup(() => connection.close());
  const temporal = new Client({ connection, namespace: bench.env['TEMPORAL_NAMESPACE'] ?? 'default' });
  const pidOf = (name: string) => bench.stack.children.find((c) => c.name === name)?.pid ?? 0;
  const postmaster = postmasterPid(bench.dataDir);
  const cpuSources: CpuSource[] = [
    { name: 'Temporal', pids: () => [temporalPid(bench.dataDir)] },
    { name: 'worker', pids: () => [pidOf('worker')] },
    { name: 'integrations', pids: () => [pidOf('integrations')] },
    { name: 'Postgres', pids: () => withChildren(postmaster) },
  ];

  const org = await newOrganization(bench, 'Benchmark webhook queue', ['read', 'write', 'admin']);
  const path = `/queue/slow-${HOLD_MS}-0`;
  const read = async () => (await receiver.arrivals('/queue/')).filter((a) => a.type === 'webhook.ping');
  step(`one endpoint capped at ${CAP} attempts in flight, answering 500 to each first attempt, then holding each retry ${HOLD_MS} ms`);
  const created = await api(bench.gatewayUrl, org.apiKey.key, 'POST', '/webhooks', { url: `http://127.0.0.1:${receiver.port}${path}`, events: ['position.created'] });
  const webhookId = created.body.data?.id;
  if (created.status !== 201 || !webhookId) throw new Error(`POST /webhooks answered ${created.status}`);

  step(`${DELIVERIES} test events at once (with the registration's ping: ${DELIVERIES + 1} deliveries), then waiting until every retry has been answered`);
  const cpuBefore = HAS_PROC ? snapshotCpu(cpuSources) : null;
  const started = Date.now();
  for (let i = 0; i < DELIVERIES; i++) {
    const res = await api(bench.gatewayUrl, org.apiKey.key, 'POST', `/webhooks/${webhookId}/test`);
    if (res.status !== 202 && res.status !== 200) throw new Error(`POST /webhooks/{id}/test answered ${res.status}`);
  }
  const total = DELIVERIES + 1;
  const retriesOf = (arrivals: Arrival[]) => arrivals.filter((a) => a.answered === 200);
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let retries = retriesOf(await read());
  while (new Set(retries.map((a) => a.webhookId)).size < total && Date.now() < deadline) {
    await sleep(200);
    retries = retriesOf(await read());
  }
  // The last retry is answered HOLD_MS after it arrived; then its record and the activity's completion.
  await sleep(HOLD_MS + 500);
  const cpu = cpuBefore ? cpuBetween(cpuBefore, snapshotCpu(cpuSources)) : null;
  const arrived = new Set(retries.map((a) => a.webhookId)).size;

  const starts = retries.map((a) => a.at).sort((x, y) => x - y);
  const firstRetry = starts[0] ?? started;
  const drainMs = (starts.at(-1) ?? started) + HOLD_MS - firstRetry;
  const idealMs = Math.ceil(starts.length / CAP) * HOLD_MS;
  // Slot time not spent holding a retry, spread over the hand-overs (every retry after the first CAP).
  const slotIdleMs = (CAP * drainMs - starts.length * HOLD_MS) / Math.max(1, starts.length - CAP);

  step('reading the endpoint retry loop\'s histories');
  const { rows } = await db.query<{ id: string; status: string; attempts: number }>(`select id, status, attempts from integrations.deliveries where webhook_id = $1`, [webhookId]);
  const attempts = rows.reduce((n, r) => n + r.attempts, 0);
  const loopId = `endpoint:${webhookId}`;
  // It ends once its queue is empty (its last round's activity completes when its attempts are recorded).
  await temporal.workflow.getHandle(loopId).result().catch(() => undefined);
  const sums: HistoryCounts = { workflowTasks: 0, timersFired: 0, activities: 0, signals: 0, events: 0 };
  for await (const run of temporal.workflow.list({ query: `WorkflowId = '${loopId}'` })) {
    const counts = await countHistory(temporal, loopId, run.runId);
    for (const k of Object.keys(sums) as (keyof HistoryCounts)[]) sums[k] += counts[k];
  }
  busy.push(...otherWorkloads());

  const per = (v: number) => (v / Math.max(1, rows.length)).toFixed(1);
  const cores = cpus().length;
  const lines = [
    `Command: \`${[process.env['BENCH_QUEUE_DELIVERIES'] ? `BENCH_QUEUE_DELIVERIES=${DELIVERIES}` : '', process.env['BENCH_QUEUE_HOLD_MS'] ? `BENCH_QUEUE_HOLD_MS=${HOLD_MS}` : ''].filter(Boolean).join(' ')}${process.env['BENCH_QUEUE_DELIVERIES'] || process.env['BENCH_QUEUE_HOLD_MS'] ? ' ' : ''}npm run bench:webhook-queue\``,
    `Date: ${bench.startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    `One endpoint, cap ${CAP} attempts in flight; ${rows.length} deliveries (${arrived} arrived), each failing its first attempt and then held ${HOLD_MS} ms by the receiver; ${attempts} attempts logged.`,
    '',
    '| deliveries | drain s | ideal s | slot idle per hand-over ms | workflow tasks | timers fired | activities | signals | history events |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${rows.length} | ${(drainMs / 1000).toFixed(1)} | ${(idealMs / 1000).toFixed(1)} | ${Math.round(slotIdleMs)} | ${per(sums.workflowTasks)} | ${per(sums.timersFired)} | ${per(sums.activities)} | ${per(sums.signals)} | ${per(sums.events)} |`,
    '',
    'The last five columns are per delivery, from the histories of the endpoint\'s retry loop (all its runs) divided by the deliveries.',
  ];
  if (cpu) {
    const names = cpuSources.map((c) => c.name);
    const counted = [...cpu.bySource.values()].reduce((a, b) => a + b, 0);
    lines.push(
      '',
      `CPU ms per delivery, first test event → last answer (${(cpu.wall / 1000).toFixed(1)} s); "other processes" is the share of the machine's ${cores} CPUs used by everything else:`,
      '',
      `| ${names.join(' | ')} | total | other processes |`,
      `|${names.map(() => '---:|').join('')}---:|---:|`,
      `| ${names.map((n) => per(cpu.bySource.get(n) ?? 0)).join(' | ')} | ${per(counted)} | ${Math.round((Math.max(0, cpu.machineBusy - counted) / (cpu.wall * cores)) * 100)} % |`,
    );
  }
  lines.push(...loadNote(busy));
  return `${lines.join('\n')}\n`;
});
