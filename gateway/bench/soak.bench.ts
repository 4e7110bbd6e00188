import { step } from '@hireloop/devstack/log';
import {
  loadNote, machineDescription, memoryOf, newApiKey, newOrganization, nextLink, otherWorkloads, percentile, postmasterPid, runBench, sleep, temporalPid,
  withChildren, type Bench, type BenchOutcome,
} from './bench-kit.js';
import { startReceiver, type Arrival, type Receiver } from './webhook-receiver.js';

/**
 * `npm run bench:soak` (issue 8 item 9): SOAK_SECONDS (default 300) of mixed traffic on loopback
 * from several API keys, each in an organization of its own and each driven just past its rate
 * limit, while every event is delivered to webhooks on a loopback receiver. It reports requests
 * and latency by kind, 429s apart from errors, the memory of every process of the stack at the
 * start, middle and end, and whether every event reached every webhook subscribed to it.
 *
 * - Keys: one per SOAK_KEY_LIMITS entry (requests per minute; default 120 — the default limit —,
 *   600, 1200, 2400). A key's bucket holds `limit` requests and refills at limit/60 per second
 *   (PRODUCT.md §4), so after the warm-up each bucket is emptied (GET /me until the first 429) and
 *   the measured run offers SOAK_OVERDRIVE (1.1) × limit/60 requests per second: about one request
 *   in eleven is answered 429, the rest are served. Requests are sent on a fixed schedule (open
 *   loop), at most MAX_IN_FLIGHT at a time per key; a send the cap refuses is counted as skipped.
 * - The mix: reads (/me, lists, GET by id, /events, a webhook's deliveries) and writes (candidates
 *   and positions created and patched, interviews scheduled and cancelled, webhook test pings),
 *   weights in MIX.
 * - Deliveries: each organization has two webhooks, one for every event type and one for three
 *   types. Afterwards every acknowledged write must have its event in GET /api/v1/events, and every
 *   event there must have arrived at every webhook subscribed to it (a ping: at its own webhook,
 *   acknowledged pings count as writes); duplicates (the same `webhook-id` twice) are counted.
 *
 * Exits 1 when a delivery or an event was lost, or a bound (error rate, memory growth) was exceeded.
 */
function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}
const SECONDS = setting('SOAK_SECONDS', 300);
const WARMUP_SECONDS = setting('SOAK_WARMUP_SECONDS', 30);
const OVERDRIVE = setting('SOAK_OVERDRIVE', 1.1);
const LIMITS = (process.env['SOAK_KEY_LIMITS'] ?? '120,600,1200,2400').split(',').map((v) => {
  const limit = Number(v);
  if (!Number.isInteger(limit) || limit < 1) throw new Error('SOAK_KEY_LIMITS must be whole requests per minute, comma-separated');
  return limit;
});
/** How long deliveries may take to catch up after the traffic stops. */
const DRAIN_SECONDS = setting('SOAK_DRAIN_SECONDS', 120);
const MAX_IN_FLIGHT = 32;
const EMPTY_BUCKET_SECONDS = 60;
const REQUEST_TIMEOUT_MS = 30_000;
const SAMPLE_EVERY_MS = 5_000;
/** A process's memory may grow by the larger of these between the start and the end of the measured run. */
const GROWTH_BOUND_BYTES = 50 * 2 ** 20;
const GROWTH_BOUND_SHARE = 0.25;
/** Added to Postgres's bound for each backend more at the end than at the start (catalog and plan caches, work_mem). */
const NEW_BACKEND_BYTES = 8 * 2 ** 20;
/** Errors (5xx, unexpected 4xx, timeouts, connection errors) allowed, as a share of requests sent. */
const MAX_ERROR_RATE = 0.001;
const WEBHOOKS = [
  { name: 'all', events: ['*'] },
  { name: 'some', events: ['candidate.created', 'position.updated', 'interview.cancelled'] },
];

interface Webhook {
  id: string;
  path: string;
  events: string[];
}

interface Org {
  label: string;
  limit: number;
  /** The key driven at the edge of its limit. */
  key: string;
  /** A key whose limit is out of reach: set-up and the reading of every event afterwards. */
  adminKey: string;
  webhooks: Webhook[];
  candidates: string[];
  candidateEmails: string[];
  positions: string[];
  interviews: string[];
  /** Interviews still scheduled, so a DELETE makes one `interview.cancelled`. */
  scheduled: string[];
  /** Acknowledged writes: `<event type> <resource id>` → how many. */
  acked: Map<string, number>;
  sequence: number;
}

interface Answer {
  status: number;
  body: { data?: { id?: string } & Record<string, unknown>; error?: { code?: string } } | null;
  ms: number;
}

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** What a 2xx answer means for the organization's pools and expected events. */
  onSuccess?: (answer: Answer) => void;
  /** A 429 or an error: the write was not made (or not surely). */
  onRefused?: (answer: Answer) => void;
}

async function call(baseUrl: string, key: string, request: Pick<Request, 'method' | 'path' | 'body'>): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}/api/v1${request.path}`, {
      method: request.method,
      headers: { authorization: `Bearer ${key}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let body: Answer['body'] = null;
    try {
      body = JSON.parse(text) as Answer['body'];
    } catch {
      /* an empty or non-JSON body */
    }
    return { status: res.status, body, ms: performance.now() - started };
  } catch {
    return { status: 0, body: null, ms: performance.now() - started };
  }
}

const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)]!;
const ack = (org: Org, type: string, id: string | undefined) => {
  if (id) org.acked.set(`${type} ${id}`, (org.acked.get(`${type} ${id}`) ?? 0) + 1);
};

function newCandidate(org: Org): Request {
  const email = `soak-${org.label}-${++org.sequence}@bench.example`;
  return {
    method: 'POST',
    path: '/candidates',
    body: { email, name: `Soak candidate ${org.sequence}` },
    onSuccess: ({ body }) => {
      org.candidates.push(body!.data!.id!);
      org.candidateEmails.push(email);
      ack(org, 'candidate.created', body?.data?.id);
    },
  };
}

function newPosition(org: Org): Request {
  return {
    method: 'POST',
    path: '/positions',
    body: { title: `Soak position ${++org.sequence}` },
    onSuccess: ({ body }) => {
      org.positions.push(body!.data!.id!);
      ack(org, 'position.created', body?.data?.id);
    },
  };
}

function newInterview(org: Org): Request {
  return {
    method: 'POST',
    path: '/interviews',
    body: { candidate: { email: pick(org.candidateEmails) }, positionId: pick(org.positions) },
    onSuccess: ({ body }) => {
      org.interviews.push(body!.data!.id!);
      org.scheduled.push(body!.data!.id!);
      ack(org, 'interview.scheduled', body?.data?.id);
    },
  };
}

/** The mix: each request is one of these kinds, drawn by weight (reads 55 %, writes 45 %). */
const MIX: Array<{ kind: string; weight: number; request: (org: Org) => Request }> = [
  { kind: 'GET /me', weight: 10, request: () => ({ method: 'GET', path: '/me' }) },
  { kind: 'GET /candidates', weight: 10, request: () => ({ method: 'GET', path: '/candidates?limit=25' }) },
  { kind: 'GET /candidates/{id}', weight: 10, request: (org) => ({ method: 'GET', path: `/candidates/${pick(org.candidates)}` }) },
  { kind: 'GET /positions', weight: 5, request: () => ({ method: 'GET', path: '/positions?limit=25' }) },
  { kind: 'GET /interviews/{id}', weight: 5, request: (org) => ({ method: 'GET', path: `/interviews/${pick(org.interviews)}` }) },
  { kind: 'GET /events', weight: 10, request: () => ({ method: 'GET', path: '/events?limit=25' }) },
  { kind: 'GET /webhooks/{id}/deliveries', weight: 5, request: (org) => ({ method: 'GET', path: `/webhooks/${pick(org.webhooks).id}/deliveries?limit=25` }) },
  { kind: 'POST /candidates', weight: 15, request: newCandidate },
  {
    kind: 'PATCH /candidates/{id}',
    weight: 10,
    request: (org) => {
      const id = pick(org.candidates);
      return { method: 'PATCH', path: `/candidates/${id}`, body: { name: `Soak candidate, renamed ${++org.sequence}` }, onSuccess: () => ack(org, 'candidate.updated', id) };
    },
  },
  { kind: 'POST /positions', weight: 5, request: newPosition },
  {
    kind: 'PATCH /positions/{id}',
    weight: 3,
    request: (org) => {
      const id = pick(org.positions);
      return { method: 'PATCH', path: `/positions/${id}`, body: { description: `Revision ${++org.sequence}` }, onSuccess: () => ack(org, 'position.updated', id) };
    },
  },
  { kind: 'POST /interviews', weight: 7, request: newInterview },
  {
    kind: 'DELETE /interviews/{id}',
    weight: 3,
    request: (org) => {
      // Taken off the list while in flight, so no two cancels of one interview race.
      const id = org.scheduled.splice(Math.floor(Math.random() * org.scheduled.length), 1)[0];
      if (!id) return newInterview(org);
      return {
        method: 'DELETE',
        path: `/interviews/${id}`,
        onSuccess: () => ack(org, 'interview.cancelled', id),
        onRefused: ({ status }) => void (status === 429 && org.scheduled.push(id)),
      };
    },
  },
  {
    kind: 'POST /webhooks/{id}/test',
    weight: 2,
    request: (org) => {
      const webhook = pick(org.webhooks);
      return { method: 'POST', path: `/webhooks/${webhook.id}/test`, onSuccess: () => ack(org, 'webhook.ping', webhook.id) };
    },
  },
];
/** The SOAK_* settings given in the environment, as they would be typed before the command. */
const settingsGiven = Object.entries(process.env)
  .filter(([name]) => name.startsWith('SOAK_'))
  .map(([name, value]) => `${name}=${value} `)
  .join('');
const TOTAL_WEIGHT = MIX.reduce((sum, m) => sum + m.weight, 0);

function drawKind(): (typeof MIX)[number] {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const m of MIX) if ((r -= m.weight) < 0) return m;
  return MIX[0]!;
}

/** Answers of the measured run by kind, and by key. */
interface Tally {
  byKind: Map<string, { statuses: Map<number, number>; served: number[] }>;
  byOrg: Map<string, { scheduled: number; skipped: number; statuses: Map<number, number> }>;
  /** Errors by `<status> <error code>`. */
  errors: Map<string, number>;
}

const isError = (status: number) => status === 0 || status >= 500 || (status >= 400 && status !== 429);

/** Drives one key for `seconds` on a fixed schedule of SOAK_OVERDRIVE × its refill rate. */
async function drive(bench: Bench, org: Org, seconds: number, tally: Tally | null): Promise<void> {
  const intervalMs = 60_000 / (org.limit * OVERDRIVE);
  const started = performance.now();
  const endAt = started + seconds * 1000;
  const inFlight = new Set<Promise<void>>();
  const mine = { scheduled: 0, skipped: 0, statuses: new Map<number, number>() };
  tally?.byOrg.set(org.label, mine);
  for (let i = 0; ; i++) {
    const due = started + i * intervalMs;
    if (due >= endAt) break;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    mine.scheduled++;
    if (inFlight.size >= MAX_IN_FLIGHT) {
      mine.skipped++;
      continue;
    }
    const { kind, request: build } = drawKind();
    const request = build(org);
    const sent = call(bench.gatewayUrl, org.key, request).then((answer) => {
      if (answer.status >= 200 && answer.status < 300) request.onSuccess?.(answer);
      else request.onRefused?.(answer);
      if (!tally) return;
      mine.statuses.set(answer.status, (mine.statuses.get(answer.status) ?? 0) + 1);
      const row = tally.byKind.get(kind) ?? { statuses: new Map<number, number>(), served: [] };
      tally.byKind.set(kind, row);
      row.statuses.set(answer.status, (row.statuses.get(answer.status) ?? 0) + 1);
      if (answer.status !== 429) row.served.push(answer.ms);
      if (isError(answer.status)) {
        const what = answer.status === 0 ? 'no answer (timeout or connection error)' : `${answer.status} ${answer.body?.error?.code ?? ''}`.trim();
        tally.errors.set(`${kind}: ${what}`, (tally.errors.get(`${kind}: ${what}`) ?? 0) + 1);
      }
    });
    const tracked = sent.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }
  await Promise.all(inFlight);
}

/**
 * Spends what is left in the key's bucket: GET /me, 16 at a time, until the first 429. False when
 * none came within EMPTY_BUCKET_SECONDS (the stack served /me slower than the bucket refills).
 */
async function emptyBucket(bench: Bench, org: Org): Promise<boolean> {
  let limited = false;
  const deadline = performance.now() + EMPTY_BUCKET_SECONDS * 1000;
  const worker = async () => {
    while (!limited && performance.now() < deadline) {
      const { status } = await call(bench.gatewayUrl, org.key, { method: 'GET', path: '/me' });
      if (status === 429) limited = true;
      else if (status !== 200) throw new Error(`GET /me answered ${status} while emptying the bucket of key ${org.label}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return limited;
}

async function setUpOrganization(bench: Bench, receiver: Receiver, limit: number, index: number): Promise<Org> {
  const label = `k${index + 1}`;
  const organization = await newOrganization(bench, `Soak ${label}`, ['read', 'write', 'admin']);
  const key = await newApiKey(bench, organization.id, ['read', 'write', 'admin'], limit);
  const org: Org = {
    label, limit, key: key.key, adminKey: organization.apiKey.key, webhooks: [], candidates: [], candidateEmails: [], positions: [], interviews: [], scheduled: [],
    acked: new Map(), sequence: 0,
  };
  const admin = async (request: Request) => {
    const answer = await call(bench.gatewayUrl, org.adminKey, request);
    if (answer.status < 200 || answer.status >= 300) throw new Error(`${request.method} ${request.path} answered ${answer.status} during set-up`);
    request.onSuccess?.(answer);
    return answer;
  };
  for (const { name, events } of WEBHOOKS) {
    const path = `/soak/${label}/${name}`;
    const { body } = await admin({ method: 'POST', path: '/webhooks', body: { url: `http://127.0.0.1:${receiver.port}${path}`, events } });
    org.webhooks.push({ id: body!.data!.id!, path, events });
    // Registration sends the endpoint a webhook.ping.
    ack(org, 'webhook.ping', body!.data!.id!);
  }
  for (let i = 0; i < 3; i++) await admin(newPosition(org));
  for (let i = 0; i < 10; i++) await admin(newCandidate(org));
  for (let i = 0; i < 3; i++) await admin(newInterview(org));
  return org;
}

interface EventEnvelope {
  id: string;
  type: string;
  createdAt: string;
  /** The resource; a webhook.ping's is `{ webhook }`. */
  data: { id?: string; webhook?: { id?: string } };
}

/** What an event is about: `<type> <resource id>`, as `ack` counts acknowledged writes (a ping: its webhook's id). */
const eventKey = (e: EventEnvelope) => `${e.type} ${e.type === 'webhook.ping' ? e.data.webhook?.id : e.data.id}`;

/** Every event of the organization, through GET /api/v1/events (100 a page, following Link). */
async function allEvents(bench: Bench, org: Org): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  let url: string | null = `${bench.gatewayUrl}/api/v1/events?limit=100`;
  while (url) {
    const res: Response = await fetch(url, { headers: { authorization: `Bearer ${org.adminKey}` } });
    if (res.status !== 200) throw new Error(`GET /events answered ${res.status}`);
    events.push(...((await res.json()) as { data: EventEnvelope[] }).data);
    const next = nextLink(res.headers.get('link'));
    // The link is on the public base URL (localhost); keep its path and query, on 127.0.0.1.
    url = next ? `${bench.gatewayUrl}${new URL(next).pathname}${new URL(next).search}` : null;
  }
  return events;
}

interface Reconciliation {
  events: number;
  ackedWrites: number;
  /** Acknowledged writes with no event in GET /events. */
  missingEvents: number;
  expectedDeliveries: number;
  delivered: number;
  lost: number;
  /** Arrivals beyond the first of a `webhook-id` at a webhook. */
  duplicates: number;
  /** Arrivals of an event that GET /events does not list, or at a webhook not subscribed to it. */
  unexpected: number;
  /** Event createdAt → first arrival, per delivery. */
  latencies: number[];
  lostExamples: string[];
}

async function reconcile(bench: Bench, orgs: Org[], receiver: Receiver): Promise<Reconciliation> {
  const r: Reconciliation = {
    events: 0, ackedWrites: 0, missingEvents: 0, expectedDeliveries: 0, delivered: 0, lost: 0, duplicates: 0, unexpected: 0,
    latencies: [], lostExamples: [],
  };
  for (const org of orgs) {
    const events = await allEvents(bench, org);
    const arrivals = await receiver.arrivals(`/soak/${org.label}/`);
    r.events += events.length;
    const eventCount = new Map<string, number>();
    for (const e of events) eventCount.set(eventKey(e), (eventCount.get(eventKey(e)) ?? 0) + 1);
    for (const [key, count] of org.acked) {
      r.ackedWrites += count;
      r.missingEvents += Math.max(0, count - (eventCount.get(key) ?? 0));
    }
    const first = new Map<string, Arrival>();
    for (const a of arrivals) {
      const key = `${a.path} ${a.webhookId}`;
      if (first.has(key)) r.duplicates++;
      else first.set(key, a);
    }
    const byEvent = new Map<string, Arrival>();
    for (const a of first.values()) byEvent.set(`${a.path} ${a.eventId}`, a);
    let matched = 0;
    for (const e of events) {
      // A ping goes to its own webhook only; any other event to every webhook subscribed to its type.
      const targets = e.type === 'webhook.ping' ? org.webhooks.filter((w) => w.id === e.data.webhook?.id) : org.webhooks.filter((w) => w.events.includes('*') || w.events.includes(e.type));
      for (const webhook of targets) {
        r.expectedDeliveries++;
        const arrival = byEvent.get(`${webhook.path} ${e.id}`);
        if (arrival) {
          matched++;
          r.delivered++;
          r.latencies.push(arrival.at - Date.parse(e.createdAt));
        } else {
          r.lost++;
          if (r.lostExamples.length < 5) r.lostExamples.push(`${e.id} (${e.type}) → ${webhook.path}`);
        }
      }
    }
    r.unexpected += byEvent.size - matched;
  }
  return r;
}

interface MemorySource {
  name: string;
  read: () => number | null;
  /** False for memory bounded by configuration instead (Postgres's shared buffers). */
  bounded: boolean;
  /** Postgres: its bound grows with the backends opened during the run. */
  backends?: boolean;
}

/** Least-squares slope of memory over time, in MB per minute: a leak is a steady slope, V8's heap a sawtooth. */
function trend(points: Array<{ at: number; value: number }>): number {
  const valid = points.filter((p) => !Number.isNaN(p.value));
  const n = valid.length;
  if (n < 2) return Number.NaN;
  const meanAt = valid.reduce((a, p) => a + p.at, 0) / n;
  const meanValue = valid.reduce((a, p) => a + p.value, 0) / n;
  const covariance = valid.reduce((a, p) => a + (p.at - meanAt) * (p.value - meanValue), 0);
  const variance = valid.reduce((a, p) => a + (p.at - meanAt) ** 2, 0);
  return variance ? ((covariance / variance) * 60) / 2 ** 20 : Number.NaN;
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ms = (v: number) => (Number.isNaN(v) ? '–' : String(Math.round(v)));
const percent = (part: number, whole: number) => (whole ? `${((part / whole) * 100).toFixed(Math.abs(part / whole) < 0.01 ? 2 : 1)} %` : '–');

await runBench('bench-soak', async (bench): Promise<BenchOutcome> => {
  const busy = otherWorkloads();
  const receiver = await startReceiver();
  bench.onCleanup(() => receiver.child.kill());
  const postmaster = postmasterPid(bench.dataDir);
  const memorySources: MemorySource[] = [
    ...bench.stack.children.map((child) => ({ name: child.name, read: () => memoryOf([child.pid]), bounded: true })),
    { name: 'Temporal', read: () => memoryOf([temporalPid(bench.dataDir)]), bounded: true },
    {
      name: 'Postgres, private (Pss_Anon of the postmaster and its backends)',
      read: () => memoryOf(withChildren(postmaster), 'Pss_Anon'),
      bounded: true,
      backends: true,
    },
    { name: 'Postgres, shared buffers touched (Pss_Shmem)', read: () => memoryOf(withChildren(postmaster), 'Pss_Shmem'), bounded: false },
  ];
  const sampleMemory = () => memorySources.map((source) => source.read() ?? Number.NaN);
  const postgresProcesses = () => withChildren(postmaster).length;

  step(`Setting up ${LIMITS.length} organizations, a key each (limits ${LIMITS.join(', ')} per minute), 2 webhooks each on a loopback receiver`);
  const orgs = await Promise.all(LIMITS.map((limit, i) => setUpOrganization(bench, receiver, limit, i)));

  step(`Warm-up: ${WARMUP_SECONDS} s of the same traffic (not measured)`);
  await Promise.all(orgs.map((org) => drive(bench, org, WARMUP_SECONDS, null)));
  step('Emptying every key\'s bucket (GET /me until the first 429), twice');
  // Twice: while the largest bucket is being emptied the others refill; the second pass is short.
  await Promise.all(orgs.map((org) => emptyBucket(bench, org)));
  const emptied = await Promise.all(orgs.map((org) => emptyBucket(bench, org)));

  step(`Soak: ${SECONDS} s at ${OVERDRIVE} × each key's refill rate`);
  const tally: Tally = { byKind: new Map(), byOrg: new Map(), errors: new Map() };
  const processesAtStart = postgresProcesses();
  const samples: Array<{ at: number; values: number[] }> = [{ at: 0, values: sampleMemory() }];
  const soakStarted = performance.now();
  let driving = true;
  const sampler = (async () => {
    while (driving) {
      await sleep(SAMPLE_EVERY_MS);
      if (driving) samples.push({ at: (performance.now() - soakStarted) / 1000, values: sampleMemory() });
    }
  })();
  await Promise.all(orgs.map((org) => drive(bench, org, SECONDS, tally)));
  driving = false;
  await sampler;
  samples.push({ at: (performance.now() - soakStarted) / 1000, values: sampleMemory() });
  const processesAtEnd = postgresProcesses();
  const soakSeconds = (performance.now() - soakStarted) / 1000;

  step(`Waiting for every delivery (at most ${DRAIN_SECONDS} s), then comparing GET /api/v1/events with the receiver's log`);
  const drainStarted = performance.now();
  let deliveries = await reconcile(bench, orgs, receiver);
  while ((deliveries.lost || deliveries.missingEvents) && performance.now() - drainStarted < DRAIN_SECONDS * 1000) {
    await sleep(3000);
    deliveries = await reconcile(bench, orgs, receiver);
  }
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  busy.push(...otherWorkloads());

  // Requests by kind.
  const failures: string[] = [];
  const sum = (statuses: Map<number, number>, test: (status: number) => boolean) => [...statuses].filter(([s]) => test(s)).reduce((a, [, n]) => a + n, 0);
  const allStatuses = new Map<number, number>();
  const allServed: number[] = [];
  const kindRows = MIX.map(({ kind }) => {
    const row = tally.byKind.get(kind) ?? { statuses: new Map<number, number>(), served: [] };
    for (const [s, n] of row.statuses) allStatuses.set(s, (allStatuses.get(s) ?? 0) + n);
    for (const v of row.served) allServed.push(v);
    return { kind, ...row };
  });
  kindRows.push({ kind: '**all**', statuses: allStatuses, served: allServed });
  const sent = sum(allStatuses, () => true);
  const errors = sum(allStatuses, isError);
  const errorStatuses = [...tally.errors].sort().map(([what, n]) => `${what} × ${n}`);
  if (errors / Math.max(1, sent) > MAX_ERROR_RATE) failures.push(`error rate ${percent(errors, sent)} is over the bound of ${MAX_ERROR_RATE * 100} %`);

  // Memory.
  const start = samples[0]!.values;
  const end = samples.at(-1)!.values;
  const middle = samples.reduce((best, s) => (Math.abs(s.at - soakSeconds / 2) < Math.abs(best.at - soakSeconds / 2) ? s : best)).values;
  const memoryRows = memorySources.map((source, i) => {
    const growth = end[i]! - start[i]!;
    // Connection pools open connections on demand: each new backend may bring its own private memory.
    const newBackends = source.backends ? Math.max(0, processesAtEnd - processesAtStart) : 0;
    const bound = Math.max(GROWTH_BOUND_BYTES, start[i]! * GROWTH_BOUND_SHARE) + newBackends * NEW_BACKEND_BYTES;
    const peak = Math.max(...samples.map((s) => s.values[i]!));
    const within = !source.bounded || (!(growth > bound) && !Number.isNaN(growth));
    if (!within) failures.push(`${source.name}: memory grew ${mb(growth)} MB (bound ${mb(bound)} MB)`);
    const slope = trend(samples.map((s) => ({ at: s.at, value: s.values[i]! })));
    return `| ${source.name}${source.backends ? `, ${processesAtStart} → ${processesAtEnd} processes` : ''} | ${mb(start[i]!)} | ${mb(middle[i]!)} | ${mb(peak)} | ${mb(end[i]!)} | ${Number.isNaN(slope) ? '–' : `${slope >= 0 ? '+' : ''}${slope.toFixed(1)}`} | ${growth >= 0 ? '+' : ''}${mb(growth)} (${percent(growth, start[i]!)}) | ${source.bounded ? mb(bound) : 'shared_buffers'} | ${!source.bounded ? '–' : within ? 'yes' : '**no**'} |`;
  });

  if (deliveries.lost) failures.push(`${deliveries.lost} deliveries lost, e.g. ${deliveries.lostExamples.join(', ')}`);
  if (deliveries.missingEvents) failures.push(`${deliveries.missingEvents} acknowledged writes have no event in GET /api/v1/events`);

  const lines = [
    `Command: \`${settingsGiven}npm run bench:soak\` (${WARMUP_SECONDS} s warm-up, then ${Math.round(soakSeconds)} s measured; loopback)`,
    `Date: ${bench.startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    `${orgs.length} organizations, one key each, every bucket emptied before the measured run and then offered ${OVERDRIVE} × its refill rate (limit ÷ 60 per second) on a fixed schedule; reads 55 %, writes 45 % of requests; 2 webhooks per organization (every event; candidate.created, position.updated, interview.cancelled) on a loopback receiver answering 200.`,
    '',
    '| key limit /min | refill req/s | offered req/s | sent | served (not 429) | served req/s | 429 | skipped (in-flight cap) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...orgs.map((org) => {
      const t = tally.byOrg.get(org.label)!;
      const answered = sum(t.statuses, () => true);
      const limited = sum(t.statuses, (s) => s === 429);
      return `| ${org.limit} | ${(org.limit / 60).toFixed(1)} | ${((org.limit / 60) * OVERDRIVE).toFixed(1)} | ${answered} | ${answered - limited} | ${((answered - limited) / soakSeconds).toFixed(1)} | ${limited} (${percent(limited, answered)}) | ${t.skipped} |`;
    }),
    ...(emptied.every(Boolean)
      ? []
      : ['', `Not at the edge: the bucket of the ${orgs.filter((_, i) => !emptied[i]).map((o) => o.limit).join(', ')}/min key(s) was not emptied within ${EMPTY_BUCKET_SECONDS} s (the stack served GET /me slower than it refills), so their 429s are too few.`]),
    '',
    'Latency is of served requests (a 429 is answered before any work); errors are 5xx, other 4xx, timeouts and connection errors.',
    '',
    '| kind | requests | 2xx | 429 | errors | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...kindRows.map(({ kind, statuses, served }) =>
      `| ${kind} | ${sum(statuses, () => true)} | ${sum(statuses, (s) => s >= 200 && s < 300)} | ${sum(statuses, (s) => s === 429)} | ${sum(statuses, isError)} | ${ms(percentile(served, 50))} | ${ms(percentile(served, 99))} |`),
    '',
    `Error rate: ${percent(errors, sent)} (${errors} of ${sent}; bound ${MAX_ERROR_RATE * 100} %)${errorStatuses.length ? ` — ${errorStatuses.join(', ')}` : ''}.`,
    '',
    `Memory (MB; RSS, Postgres as PSS from smaps_rollup) at the start of the measured run, its middle, its peak (sampled every ${SAMPLE_EVERY_MS / 1000} s), its end, and the least-squares slope of the samples; bound: growth ≤ the larger of ${mb(GROWTH_BOUND_BYTES)} MB and ${GROWTH_BOUND_SHARE * 100} % of the start (Postgres: plus ${mb(NEW_BACKEND_BYTES)} MB per backend more at the end than at the start):`,
    '',
    '| process | start | middle | peak | end | trend MB/min | growth | bound | within |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...memoryRows,
    '',
    `Deliveries, checked ${drainSeconds.toFixed(0)} s after the traffic stopped (warm-up included; latency = event createdAt → first arrival):`,
    '',
    '| acknowledged writes (incl. pings) | without an event | events | expected deliveries | delivered | lost | duplicates | unexpected | p50 ms | p99 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${deliveries.ackedWrites} | ${deliveries.missingEvents} | ${deliveries.events} | ${deliveries.expectedDeliveries} | ${deliveries.delivered} | ${deliveries.lost} | ${deliveries.duplicates} | ${deliveries.unexpected} | ${ms(percentile(deliveries.latencies, 50))} | ${ms(percentile(deliveries.latencies, 99))} |`,
    '',
    failures.length ? `**Bounds exceeded:** ${failures.join('; ')}.` : 'Every bound held: no delivery or event lost, error rate and memory growth within their bounds.',
    ...loadNote(busy),
  ];
  return { report: `${lines.join('\n')}\n`, failures };
});
