import { cpus } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { serviceFetch } from '@hireloop/platform/service-fetch';
import { freePort } from '@hireloop/devstack/ports';
import { step } from '@hireloop/devstack/log';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { AI_NOTICE_VERSION } from '@hireloop/recruiting/interviews/ai-notice';
import { cpuBetween, memoryOf, newOrganization, percentile, postmasterPid, sleep, snapshotCpu, stackCpuSources, temporalPid, withChildren, resetStatements, topStatements, type Bench, type BenchOrganization, type CpuSource } from './bench-kit.js';
import type { Receiver } from './webhook-receiver.js';

/**
 * Two rows of `npm run bench:webhooks` for issue 19, written so that they run unchanged against
 * the code before it (a checkout of main with the bench files copied in), for a before row:
 *
 * - **Storm**: 100 dead endpoints on `*`, half refusing connections and half hanging, and 2,000
 *   events; 10 interview evaluations and 10 erasures started in the middle. Reports the running
 *   workflows during and after, the CPU of Temporal, the worker, integrations and Postgres while
 *   idle afterwards, the worker's RSS, and the time to `evaluation.completed` and to the erasure
 *   task `succeeded` against the same run with no dead endpoint (the same events and work in an
 *   organization with no webhook) and against the same work alone. Integrations runs with the
 *   production retry schedule for it (the stack's test schedule would end every retry in 12 s).
 * - **Replay of a 30-day window of 100,000 events**: the time to the 202, and until every
 *   delivery is queued.
 */
export const STORM = {
  endpoints: Number(process.env['BENCH_STORM_ENDPOINTS'] ?? '100'),
  events: Number(process.env['BENCH_STORM_EVENTS'] ?? '2000'),
  work: Number(process.env['BENCH_STORM_WORK'] ?? '10'),
  /** How long the evaluations and erasures are waited for, at most. */
  budgetMs: Number(process.env['BENCH_STORM_BUDGET_S'] ?? '300') * 1000,
  /**
   * Where the evaluations and erasures of the storm run: in the storm's own organization (the
   * default), or in another one (BENCH_STORM_WORK_ORG=other), which shares no lock with the
   * storm's event ingest (an erasure's scrub waits for its own organization's ingests).
   */
  workInOtherOrg: process.env['BENCH_STORM_WORK_ORG'] === 'other',
  /**
   * Idle after the storm: the wait before the idle measure (at least this, and until no delivery
   * attempt is in flight, at most three times this), and its length.
   */
  settleMs: 30_000,
  idleMs: 30_000,
};
export const REPLAY_EVENTS = Number(process.env['BENCH_REPLAY_EVENTS'] ?? '100000');
const PRODUCTION_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

/**
 * Waits until no delivery attempt is in flight (no live lease), at most `maxMs`: a hanging
 * endpoint's last attempts and its first probe take 15 s each, and end well after the events;
 * the endpoints are idle only then. Answers how long it waited.
 */
async function attemptsEnded(db: pg.Client, maxMs: number): Promise<number> {
  const from = Date.now();
  while (Date.now() - from < maxMs) {
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from integrations.deliveries where lease_until > now()');
    if (rows[0]?.n === 0) break;
    await sleep(1000);
  }
  return Date.now() - from;
}

/** The fields of the answers this file reads. */
interface Data {
  id: string;
  status?: string;
  inviteUrl?: string;
  count?: number;
}

async function api(bench: Bench, org: BenchOrganization, method: string, path: string, body?: unknown): Promise<{ status: number; data: Data }> {
  const res = await serviceFetch(`${bench.gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${org.apiKey.key}`, 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path} answered ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, data: (text ? (JSON.parse(text) as { data: Data }).data : undefined)! };
}

async function postForm(bench: Bench, inviteUrl: string, action: string, fields: [string, string][]) {
  const res = await fetch(`${bench.gatewayUrl}${new URL(inviteUrl).pathname}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  if (res.status !== 303) throw new Error(`invite ${action} answered ${res.status}`);
}

/** Answers long enough that the offline interviewer asks no follow-up: one per scripted question. */
const STORM_ANSWERS = [
  'Because the mission matters to me and the team ships carefully measured improvements every single week.',
  'A deadlock under load that only appeared with two workers, found by logging every lock taken and released.',
];

/**
 * The candidate's answers, as a browser without JavaScript sends them: one form post per turn of
 * the conversation (PRODUCT.md §12), until the page shows no turn. A page with the one-page form
 * of before the conversation (a before tree) gets all answers in one submit.
 */
async function answerInterview(bench: Bench, inviteUrl: string) {
  const page = `${bench.gatewayUrl}${new URL(inviteUrl).pathname}`;
  for (let i = 0; i < 20; i++) {
    const html = await (await fetch(page)).text();
    const turn = html.match(/name="turn" value="([^"]+)"/)?.[1];
    if (!turn) {
      if (i === 0) await postForm(bench, inviteUrl, 'submit', STORM_ANSWERS.map((answer) => ['answer', answer]));
      return;
    }
    await postForm(bench, inviteUrl, 'answer', [['turn', turn], ['answer', STORM_ANSWERS[Math.min(i, STORM_ANSWERS.length - 1)]!]]);
  }
  throw new Error('the interview did not end within 20 turns');
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, deadline: number, everyMs = 200): Promise<T | null> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) return null;
    await sleep(everyMs);
  }
}

/**
 * `count` interview evaluations and `count` erasures, started at once: the seconds from each
 * submit to `completed`, and from each DELETE to its task `succeeded` (null: not within the budget).
 */
async function evaluationsAndErasures(bench: Bench, org: BenchOrganization, count: number, deadline: number) {
  const position = await api(bench, org, 'POST', '/api/v1/positions', { title: 'Storm Engineer', interviewQuestions: ['Why us?', 'Hardest bug?'] });
  const prepared = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const interview = await api(bench, org, 'POST', '/api/v1/interviews', { positionId: position.data.id, candidate: { email: `storm-${Date.now()}-${i}@example.com`, name: 'Storm Candidate' } });
      await postForm(bench, interview.data.inviteUrl!, 'start', [['consent', 'agree'], ['notice', AI_NOTICE_VERSION]]);
      const candidate = await api(bench, org, 'POST', '/api/v1/candidates', { email: `erase-${Date.now()}-${i}@example.com`, name: 'Erased Soon' });
      return { interview: { id: interview.data.id, inviteUrl: interview.data.inviteUrl! }, candidateId: candidate.data.id };
    }),
  );
  // From the first answer sent to `completed`.
  const workflowIds = prepared.flatMap(({ interview, candidateId }) => [`evaluate:${interview.id}`, `erase:${candidateId}`]);
  const timings = new Map<string, ClientTimes>();
  const evaluations = prepared.map(async ({ interview }) => {
    const started = Date.now();
    await answerInterview(bench, interview.inviteUrl);
    const requested = Date.now();
    const done = await until(async () => (await api(bench, org, 'GET', `/api/v1/interviews/${interview.id}/evaluation`)).data, (e) => e?.status === 'completed' || e?.status === 'failed', deadline);
    timings.set(`evaluate:${interview.id}`, { started, requested, seen: Date.now() });
    return done?.status === 'completed' ? (Date.now() - started) / 1000 : null;
  });
  const erasures = prepared.map(async ({ candidateId }) => {
    const started = Date.now();
    const task = await api(bench, org, 'DELETE', `/api/v1/candidates/${candidateId}`);
    const requested = Date.now();
    const done = await until(async () => (await api(bench, org, 'GET', `/api/v1/tasks/${task.data.id}`)).data, (t) => t?.status === 'succeeded' || t?.status === 'failed', deadline);
    timings.set(`erase:${candidateId}`, { started, requested, seen: Date.now() });
    return done?.status === 'succeeded' ? (Date.now() - started) / 1000 : null;
  });
  return { evaluations: await Promise.all(evaluations), erasures: await Promise.all(erasures), workflowIds, timings };
}

/**
 * The bench's clock for one piece of work (ms since the epoch): when it began (the first answer,
 * or the DELETE), when its requests were answered (the last answer, or the DELETE's answer), and
 * when its polling saw the end.
 */
interface ClientTimes { started: number; requested: number; seen: number }

/**
 * Where a workflow's time went, from its history: ms waiting for a worker to take a task, ms of
 * workflow tasks, ms of activities; and around the run, from the bench's clock (ClientTimes): ms
 * of the requests that started it, from their answer to the workflow's start (the relay), and
 * from its end until the polling saw it.
 */
interface Breakdown { kind: 'evaluate' | 'erase'; queued: number; workflowTasks: number; total: number; byActivity: Map<string, number>; requests: number; toStart: number; toSeen: number }

/** Ms of all its activities. */
const activitiesOf = (b: Breakdown) => [...b.byActivity.values()].reduce((sum, ms) => sum + ms, 0);

const msOf = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(t?.seconds ?? 0) * 1000 + (t?.nanos ?? 0) / 1e6;

/**
 * Each workflow's history read back: the time from a task scheduled to a worker starting it
 * (`queued`: Temporal's matching and the worker's polling, the part a busy Temporal slows), from
 * a workflow task started to completed, and from an activity started to completed (the step
 * itself: our services and Postgres), summed over the run.
 */
async function breakdowns(temporal: Client, ids: string[], timings: Map<string, ClientTimes>): Promise<Breakdown[]> {
  return Promise.all(ids.map(async (id) => {
    const history = await temporal.workflow.getHandle(id).fetchHistory();
    const events = history.events ?? [];
    const at = new Map(events.map((e) => [Number(e.eventId), msOf(e.eventTime)]));
    const out: Breakdown = { kind: id.startsWith('erase:') ? 'erase' : 'evaluate', queued: 0, workflowTasks: 0, total: 0, byActivity: new Map(), requests: 0, toStart: 0, toSeen: 0 };
    const activityNames = new Map<number, string>();
    for (const e of events) {
      const name = e.activityTaskScheduledEventAttributes?.activityType?.name;
      if (name) activityNames.set(Number(e.eventId), name);
      const time = msOf(e.eventTime);
      const wtStarted = e.workflowTaskStartedEventAttributes;
      const wtCompleted = e.workflowTaskCompletedEventAttributes;
      const atStarted = e.activityTaskStartedEventAttributes;
      const atCompleted = e.activityTaskCompletedEventAttributes;
      if (wtStarted) out.queued += time - (at.get(Number(wtStarted.scheduledEventId)) ?? time);
      if (wtCompleted) out.workflowTasks += time - (at.get(Number(wtCompleted.startedEventId)) ?? time);
      if (atStarted) out.queued += time - (at.get(Number(atStarted.scheduledEventId)) ?? time);
      if (atCompleted) {
        const ran = time - (at.get(Number(atCompleted.startedEventId)) ?? time);
        const name = activityNames.get(Number(atCompleted.scheduledEventId)) ?? '?';
        out.byActivity.set(name, (out.byActivity.get(name) ?? 0) + ran);
      }
    }
    const [first, last] = [msOf(events[0]?.eventTime), msOf(events.at(-1)?.eventTime)];
    out.total = last - first;
    const client = timings.get(id);
    if (client) Object.assign(out, { requests: client.requested - client.started, toStart: first - client.requested, toSeen: client.seen - last });
    return out;
  }));
}

/** Median seconds of each activity of one kind of workflow, in the order they first ran: `name s, …`. */
function activityCells(all: Breakdown[], kind: Breakdown['kind']): string {
  const of = all.filter((b) => b.kind === kind);
  const names = [...new Set(of.flatMap((b) => [...b.byActivity.keys()]))];
  return names.map((n) => `${n} ${(percentile(of.map((b) => b.byActivity.get(n) ?? 0), 50) / 1000).toFixed(2)}`).join(', ') || '–';
}

/** Median seconds of each part, for one kind of workflow. */
function breakdownCells(all: Breakdown[], kind: Breakdown['kind']): string {
  const of = all.filter((b) => b.kind === kind);
  if (of.length === 0) return '– | – | – | – | – | – | –';
  const p50 = (pick: (b: Breakdown) => number) => (percentile(of.map(pick), 50) / 1000).toFixed(2);
  return `${p50((b) => b.requests)} | ${p50((b) => b.toStart)} | ${p50((b) => b.total)} | ${p50((b) => b.queued)} | ${p50((b) => b.workflowTasks)} | ${p50(activitiesOf)} | ${p50((b) => b.toSeen)}`;
}

/** Restarts the stack's integrations with other settings (same port); returns the new process's pid. */
async function restartIntegrations(bench: Bench, env: Record<string, string>): Promise<void> {
  const current = bench.stack.children.findLast((c) => c.name === 'integrations')!;
  await current.stop();
  await bench.stack.startProcess('integrations', join('services', 'integrations', 'src', 'index.ts'), { ...env, INTEGRATIONS_PORT: bench.env['INTEGRATIONS_PORT']! });
}

const pidOf = (bench: Bench, name: string) => bench.stack.children.findLast((c) => c.name === name)?.pid ?? 0;
const mb = (bytes: number | null) => (bytes === null ? '–' : String(Math.round(bytes / 1024 / 1024)));
const seconds = (values: (number | null)[]) => {
  const done = values.filter((v): v is number => v !== null);
  const missing = values.length - done.length;
  if (done.length === 0) return `none within the budget`;
  return `p50 ${percentile(done, 50).toFixed(1)} s, max ${Math.max(...done).toFixed(1)} s${missing ? ` (${missing} of ${values.length} not within the budget)` : ''}`;
};

/**
 * The runs of the endpoints' retry loops started since `from` (continued-as-new ones included) and
 * their history events so far: what the deliveries lane asked of Temporal.
 */
async function loopHistoryEvents(temporal: Client, from: number): Promise<{ runs: number; events: number }> {
  let runs = 0, events = 0;
  for await (const run of temporal.workflow.list({ query: `Kind = 'webhook_delivery' AND StartTime >= '${new Date(from).toISOString()}'` })) {
    runs++;
    events += run.status.name === 'RUNNING' ? (await temporal.workflow.getHandle(run.workflowId, run.runId).describe()).historyLength : run.historyLength;
  }
  return { runs, events };
}

/** The storm row: markdown lines. */
export async function stormReport(bench: Bench, db: pg.Client, receiver: Receiver): Promise<string[]> {
  const connection = await Connection.connect({ address: bench.env['TEMPORAL_ADDRESS']! });
  const temporal = new Client({ connection });
  try {
    const running = async (query = '') => (await temporal.workflow.count(`ExecutionStatus = 'Running'${query}`)).count;
    step(`Storm: integrations with the production retry schedule (${PRODUCTION_SCHEDULE})`);
    await restartIntegrations(bench, { WEBHOOK_RETRY_SCHEDULE: PRODUCTION_SCHEDULE });

    step(`Storm: first ${STORM.work} evaluations and ${STORM.work} erasures with no dead endpoint (the baseline), after one of each not measured`);
    const quiet = await newOrganization(bench, 'Benchmark storm baseline', ['read', 'write', 'admin']);
    await evaluationsAndErasures(bench, quiet, 1, Date.now() + STORM.budgetMs);
    const baseline = await evaluationsAndErasures(bench, quiet, STORM.work, Date.now() + STORM.budgetMs);

    const integrations = createIntegrationsClient(bench.env['INTEGRATIONS_URL']!, bench.env['INTERNAL_TOKEN_KEYS']!);
    const publish = async (organizationId: string, prefix: string, from: number, to: number) => {
      for (let i = from; i < to; i += 100) {
        const events = Array.from({ length: Math.min(100, to - i) }, (_, k) => ({
          id: `evt_${prefix}${String(i + k).padStart(14, '0')}`, type: 'position.updated' as const, createdAt: new Date().toISOString(), data: { n: i + k }, organizationId,
        }));
        await integrations.system.events.ingest.mutate({ events });
      }
    };
    // The issue's comparison: the same run (the events, the work in their middle) with no dead
    // endpoint, in an organization with no webhook (its events are kept; none fans out).
    step(`Storm: the same run with no dead endpoint: ${STORM.events} events into an organization with no webhook, ${STORM.work} evaluations and ${STORM.work} erasures in the middle`);
    const calm = await newOrganization(bench, 'Benchmark storm without dead endpoints', ['read', 'write', 'admin']);
    const calmCpuFrom = snapshotCpu(stackCpuSources(bench));
    await publish(calm.id, 'calm', 0, STORM.events / 2);
    const calmDuring = evaluationsAndErasures(bench, calm, STORM.work, Date.now() + STORM.budgetMs);
    await publish(calm.id, 'calm', STORM.events / 2, STORM.events);
    const calmWork = await calmDuring;
    const calmCpu = cpuBetween(calmCpuFrom, snapshotCpu(stackCpuSources(bench)));

    const org = await newOrganization(bench, 'Benchmark storm', ['read', 'write', 'admin']);
    step(`Storm: ${STORM.endpoints} dead endpoints on * (half refusing connections, half hanging), ${STORM.events} events`);
    for (let i = 0; i < STORM.endpoints; i++) {
      const url = i % 2 === 0 ? `http://127.0.0.1:${await freePort()}/refused-${i}` : `http://127.0.0.1:${receiver.port}/storm/hang-${i}`;
      await api(bench, org, 'POST', '/api/v1/webhooks', { url, events: ['*'] });
    }
    const samples: { deliveryWorkflows: number; all: number; workerRss: number | null }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push({ deliveryWorkflows: await running(` AND Kind = 'webhook_delivery'`), all: await running(), workerRss: memoryOf([pidOf(bench, 'worker')]) });
        await sleep(2000);
      }
    })();
    const stormStarted = Date.now();
    const stackSources = stackCpuSources(bench);
    const stormCpuFrom = snapshotCpu(stackSources);
    await resetStatements(db);
    await publish(org.id, 'storm', 0, STORM.events / 2);
    step(`Storm: ${STORM.work} evaluations and ${STORM.work} erasures in the middle of it`);
    const workOrg = STORM.workInOtherOrg ? await newOrganization(bench, 'Benchmark storm bystander', ['read', 'write', 'admin']) : org;
    const during = evaluationsAndErasures(bench, workOrg, STORM.work, Date.now() + STORM.budgetMs);
    await publish(org.id, 'storm', STORM.events / 2, STORM.events);
    const published = Date.now();
    const stormWork = await during;
    const workDone = Date.now();
    const loopEvents = await loopHistoryEvents(temporal, stormStarted);
    const stormCpu = cpuBetween(stormCpuFrom, snapshotCpu(stackSources));
    const statements = await topStatements(db);
    const shares = (cpu: typeof stormCpu) => [...cpu.bySource].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1])
      .map(([name, ms]) => `${name} ${Math.round((ms / cpu.wall) * 100)} %`).join(', ');
    const stormShares = shares(stormCpu);
    step('Storm: settling, then idle CPU');
    await sleep(Math.max(0, STORM.settleMs - (Date.now() - Math.max(published, workDone))));
    const quietAfterMs = await attemptsEnded(db, STORM.settleMs * 3);
    const idleFrom = Date.now() - Math.max(published, workDone);
    sampling = false;
    await sampler;

    const sources: CpuSource[] = ['worker', 'integrations'].map((name) => ({ name, pids: () => [pidOf(bench, name)] }));
    sources.push({ name: 'Temporal', pids: () => [temporalPid(bench.dataDir)] }, { name: 'Postgres', pids: () => withChildren(postmasterPid(bench.dataDir)) });
    const before = snapshotCpu(sources);
    await sleep(STORM.idleMs);
    const idle = cpuBetween(before, snapshotCpu(sources));
    const core = (name: string) => `${((idle.bySource.get(name) ?? 0) / idle.wall * 100).toFixed(1)} %`;
    const after = { deliveryWorkflows: await running(` AND Kind = 'webhook_delivery'`), all: await running(), workerRss: memoryOf([pidOf(bench, 'worker')]) };
    const rows = await deliveryStates(db, org.id);
    const [quietParts, stormParts] = [await breakdowns(temporal, baseline.workflowIds, baseline.timings), await breakdowns(temporal, stormWork.workflowIds, stormWork.timings)];
    const peak = Math.max(...samples.map((s) => s.deliveryWorkflows), 0);
    const peakAll = Math.max(...samples.map((s) => s.all), 0);
    const peakRss = Math.max(...samples.map((s) => s.workerRss ?? 0), 0);
    const ratio = (storm: (number | null)[], base: (number | null)[]) => {
      const s = storm.filter((v): v is number => v !== null);
      const b = base.filter((v): v is number => v !== null);
      return s.length === storm.length && b.length ? `${(percentile(s, 50) / percentile(b, 50)).toFixed(2)}×` : '–';
    };
    return [
      '',
      `Storm (issue 19): ${STORM.endpoints} dead endpoints on \`*\` (${STORM.endpoints / 2} refusing connections, ${STORM.endpoints / 2} hanging until the 15 s deadline), ${STORM.events} events (published in ${((published - stormStarted) / 1000).toFixed(1)} s), integrations on the production retry schedule; ${STORM.work} evaluations and ${STORM.work} erasures started in the middle (in ${STORM.workInOtherOrg ? 'another organization' : "the storm's organization"}), against the same run with no dead endpoint (the same events and work in an organization with no webhook) and against the same work alone just before (waited for at most ${STORM.budgetMs / 1000} s):`,
      '',
      '| | the work alone | the same run, no dead endpoint | during the storm | storm ÷ no dead endpoint (p50) | storm ÷ alone (p50) |',
      '|---|---|---|---|---:|---:|',
      `| time to \`evaluation.completed\` | ${seconds(baseline.evaluations)} | ${seconds(calmWork.evaluations)} | ${seconds(stormWork.evaluations)} | ${ratio(stormWork.evaluations, calmWork.evaluations)} | ${ratio(stormWork.evaluations, baseline.evaluations)} |`,
      `| time to the erasure task \`succeeded\` | ${seconds(baseline.erasures)} | ${seconds(calmWork.erasures)} | ${seconds(stormWork.erasures)} | ${ratio(stormWork.erasures, calmWork.erasures)} | ${ratio(stormWork.erasures, baseline.erasures)} |`,
      '',
      'Where each piece of work\'s time went (medians, seconds): the requests that start it (the evaluation\'s answers, the erasure\'s DELETE), from their answer to the workflow\'s start (the outbox relay), then from its history: from its start to its end; waiting for a worker to take each task (scheduled → started: Temporal and polling); running its workflow tasks; running its activities (our services and Postgres); then from its end until the bench\'s polling saw it (GET every 0.2 s):',
      '',
      '| workflow | requests | to its start | run | queued | workflow tasks | activities | until seen |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      `| evaluation, before the storm | ${breakdownCells(quietParts, 'evaluate')} |`,
      `| evaluation, during the storm | ${breakdownCells(stormParts, 'evaluate')} |`,
      `| erasure, before the storm | ${breakdownCells(quietParts, 'erase')} |`,
      `| erasure, during the storm | ${breakdownCells(stormParts, 'erase')} |`,
      '',
      `Each activity (medians, seconds): erasure before the storm: ${activityCells(quietParts, 'erase')}; during it: ${activityCells(stormParts, 'erase')}. Evaluation before: ${activityCells(quietParts, 'evaluate')}; during: ${activityCells(stormParts, 'evaluate')}.`,
      '',
      `CPU from the storm's first event until the last measured workflow ended (${(stormCpu.wall / 1000).toFixed(1)} s), share of one core: ${stormShares}; the whole machine ${Math.round((stormCpu.machineBusy / stormCpu.wall) * 100)} % of one core (of ${cpus().length}). The same for the run with no dead endpoint (${(calmCpu.wall / 1000).toFixed(1)} s): ${shares(calmCpu)}; the whole machine ${Math.round((calmCpu.machineBusy / calmCpu.wall) * 100)} %.`,
      '',
      ...(statements.length ? ['Postgres statements with the most execution time in the same window (BENCH_PG_STATEMENTS=1; the time includes waits for row locks):', '', ...statements, ''] : []),
      '| running workflows | during the storm (peak, sampled every 2 s) | after it (settled) |',
      '|---|---:|---:|',
      `| webhook delivery workflows | ${peak} | ${after.deliveryWorkflows} |`,
      `| every workflow | ${peakAll} | ${after.all} |`,
      '',
      `The endpoints' retry loops from the storm's first event until the last measured workflow ended: ${loopEvents.runs} runs, ${loopEvents.events} history events (${(loopEvents.events / ((workDone - stormStarted) / 1000)).toFixed(0)} a second).`,
      '',
      `Deliveries of the storm's organization at the end: ${rows}. Worker RSS: peak ${mb(peakRss)} MB, after ${mb(after.workerRss)} MB. CPU while idle after the storm (${STORM.idleMs / 1000} s from ${(idleFrom / 1000).toFixed(0)} s after the work ended, the last ${(quietAfterMs / 1000).toFixed(0)} s of that spent waiting for the attempts in flight to end; share of one core): Temporal ${core('Temporal')}, worker ${core('worker')}, integrations ${core('integrations')}, Postgres ${core('Postgres')}.`,
    ];
  } finally {
    await connection.close();
  }
}

async function deliveryStates(db: pg.Client, organizationId: string): Promise<string> {
  const { rows } = await db.query<{ status: string; n: number }>(`select status, count(*)::int as n from integrations.deliveries where organization_id = $1 group by status order by status`, [organizationId]);
  return rows.map((r) => `${r.n} ${r.status}`).join(', ');
}

/** The replay row: markdown lines. */
export async function longReplayReport(bench: Bench, db: pg.Client, receiver: Receiver): Promise<string[]> {
  const org = await newOrganization(bench, 'Benchmark long replay', ['read', 'write', 'admin']);
  const hook = await api(bench, org, 'POST', '/api/v1/webhooks', { url: `http://127.0.0.1:${receiver.port}/replay-window/0`, events: ['position.created'] });
  step(`Long replay: ${REPLAY_EVENTS} events over 30 days`);
  await db.query(
    `insert into integrations.events (id, organization_id, type, payload, created_at)
     select 'evt_replay' || lpad(i::text, 14, '0'), $1, 'position.created',
       jsonb_build_object('id', 'evt_replay' || lpad(i::text, 14, '0'), 'type', 'position.created', 'createdAt', to_json(t)#>>'{}', 'data', jsonb_build_object('n', i)), t
     from generate_series(1, $2::int) as i, lateral (select now() - interval '30 days' + interval '1 hour' + (i * (interval '30 days' - interval '2 hours') / $2::int)) as x(t)`,
    [org.id, REPLAY_EVENTS],
  );
  await db.query('analyze integrations.events');
  const window = { since: new Date(Date.now() - 30 * 24 * 3600_000).toISOString() };
  const sent = performance.now();
  const accepted = await api(bench, org, 'POST', `/api/v1/webhooks/${hook.data.id}/replay`, window);
  const answeredMs = performance.now() - sent;
  const queued = await until(
    async () => Number((await db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = $1 and event_id like 'evt_replay%'`, [hook.data.id])).rows[0].n),
    (n) => n >= REPLAY_EVENTS,
    Date.now() + 600_000,
    250,
  );
  const queuedMs = performance.now() - sent;
  // Deleting the endpoint cancels what the dispatchers have not sent yet.
  await api(bench, org, 'DELETE', `/api/v1/webhooks/${hook.data.id}`);
  return [
    '',
    `Replay of a 30-day window of ${REPLAY_EVENTS} events (one POST /webhooks/{id}/replay to one endpoint): answered ${accepted.status} with count ${accepted.data.count} in ${(answeredMs / 1000).toFixed(2)} s; every delivery queued ${queued === null ? 'not within 600 s' : `${(queuedMs / 1000).toFixed(1)} s`} after the request.`,
  ];
}
