import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { step } from '@hireloop/devstack/log';
import { newId, parseKeyRing, SecretBox } from '@hireloop/platform';
import {
  failureNotes, loadNote, machineDescription, measureLoadWithCpu, newOrganization, otherWorkloads, planSummary, runBench, secondsSince, seedingSession, stackCpuSources, verifyTarget, type CpuSource, type LoadTarget,
} from './bench-kit.js';
import { CONNECTIONS, CPU_COLUMNS_NOTE, cpuPerRequest, DEEP_PAGE, DURATION_SECONDS, otherLoad, PAGE_SIZE, pageTable, TIMING, WARMUP_SECONDS, walkToDeepPage, measurePages, type Row } from './page-walk.js';
import { hashColumns, idSql } from './seeded-ids.js';
import { DEFAULT_RUBRIC_COMPETENCIES } from '@hireloop/recruiting/positions/default-rubric';

/**
 * `npm run bench:interviews` (issue 3): GET /api/v1/interviews?limit=25 on page 1 and page 100 of
 * one organization holding 10 000 and then 1 000 000 interviews, and POST /api/v1/interviews
 * throughput. Interviews are seeded with SQL straight into the recruiting schema (generate_series,
 * ~100 000 rows a statement); the list is then read through the gateway like any client would,
 * following `Link: rel="next"` to reach page 100.
 */
const SMALL = 10_000;
/** BENCH_INTERVIEWS (default 1 000 000, a multiple of 10 000) sets the size of the second data set. */
const LARGE = Number(process.env['BENCH_INTERVIEWS'] ?? 1_000_000);
const CANDIDATES = 1_000;
/** Slots of the large data set per INSERT: 101 010 slots hold ~100 000 rows of the second stage. */
const CHUNK_SLOTS = 101_010;
const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
/** The year is cut into LARGE slots, one interview each: 31.536 s apart at 1 000 000. */
const SLOT_MS = Math.floor(YEAR_MS / LARGE);

if (!Number.isInteger(LARGE) || LARGE <= SMALL || LARGE % SMALL !== 0) throw new Error(`BENCH_INTERVIEWS must be a multiple of ${SMALL} above it`);

interface Seed {
  organizationId: string;
  positionId: string;
  /** Epoch ms the year of interviews ends at (the seeding started then). */
  end: number;
  /**
   * One invite token per candidate, sealed with the stack's INVITE_TOKEN_KEYS: the list opens the
   * sealed token of each row for `inviteUrl`, and sealing a million in the bench would dominate
   * the seeding. The stored hash stays the id's (it must be unique); the list does not read it.
   */
  sealedTokens: string[];
}

async function seedPositionAndCandidates(db: pg.Client, seed: Seed): Promise<void> {
  const base = seed.end - YEAR_MS - 2 * DAY_MS;
  // The position with the default rubric as its version 1, and no questions of its own, as the API would create it.
  await db.query(
    `insert into recruiting.positions (id, organization_id, title, employment_type, status, rubric_version, competencies, questions, created_at, updated_at)
     values ($1, $2, 'Benchmark Engineer', 'full_time', 'open', 1, $4::jsonb, '[]'::jsonb, $3, $3)`,
    [seed.positionId, seed.organizationId, new Date(base), JSON.stringify(DEFAULT_RUBRIC_COMPETENCIES)],
  );
  await db.query(
    `insert into recruiting.rubric_versions (position_id, version, organization_id, competencies, questions, created_at)
     select id, rubric_version, organization_id, competencies, questions, created_at from recruiting.positions where id = $1`,
    [seed.positionId],
  );
  await db.query(
    `insert into recruiting.candidates (id, organization_id, email, name, created_at, updated_at)
     select id, $1, 'candidate-' || lpad(k::text, 4, '0') || '@bench.example', 'Candidate ' || k, created_at, created_at
     from (select k, ${idSql('cand', 'ms', 'h')} as id, timestamptz 'epoch' + ms * interval '1 millisecond' as created_at
           from (select k, $2::bigint + k * 1000 as ms, ${hashColumns(`'cand' || k`, 'h')} from generate_series(0, ${CANDIDATES - 1}) k offset 0) s) t`,
    [seed.organizationId, base + DAY_MS],
  );
}

/**
 * Interviews for slots `from`..`to` (every `by`-th; `where` filters slots further). Slot n is
 * created at `year start + (n − 1) × slot` plus a sub-second offset, for candidate n mod 1000.
 */
async function insertInterviews(db: pg.Client, seed: Seed, range: { from: number; to: number; by: number; where: string }): Promise<number> {
  const yearStart = seed.end - YEAR_MS;
  const candidateBase = seed.end - YEAR_MS - DAY_MS;
  const { rowCount } = await db.query(
    `insert into recruiting.interviews
       (id, organization_id, title, status, candidate_id, position_id, duration_minutes, invite_token_hash, invite_token_sealed, questions, expires_at, created_at, updated_at)
     select id, $1, 'Benchmark Engineer interview', 'scheduled', candidate_id, $2, 30, encode(sha256(convert_to(id, 'UTF8')), 'hex'), sealed, '[]'::jsonb,
            $3::timestamptz, created_at, created_at
     from (select ${idSql('int', 'ms', 'h')} as id, ($9::text[])[n % ${CANDIDATES} + 1] as sealed,
                  ${idSql('cand', 'candidate_ms', 'candidate_h')} as candidate_id,
                  date_trunc('milliseconds', timestamptz 'epoch' + ms * interval '1 millisecond') as created_at
           from (select n, $4::bigint + (n - 1) * ${SLOT_MS} + (n * 7919) % 997 as ms, ${hashColumns(`'int' || n`, 'h')},
                        $5::bigint + (n % ${CANDIDATES}) * 1000 as candidate_ms, ${hashColumns(`'cand' || (n % ${CANDIDATES})`, 'candidate_h')}
                 from generate_series($6::bigint, $7::bigint, $8::bigint) n where ${range.where} offset 0) s) t`,
    [seed.organizationId, seed.positionId, new Date(seed.end + 60 * DAY_MS), yearStart, candidateBase, range.from, range.to, range.by, seed.sealedTokens],
  );
  return rowCount ?? 0;
}

/** Every seeded id has the shape of a real one, and id order is created_at order (in byte order, as base62 is meant to sort). */
async function checkIds(db: pg.Client, organizationId: string): Promise<void> {
  const { rows } = await db.query<{ malformed: string; out_of_order: string }>(
    `select count(*) filter (where id !~ '^int_[0-9A-Za-z]{23}$') as malformed,
            count(*) filter (where previous_id >= id collate "C") as out_of_order
     from (select id, lag(id) over (order by created_at, id) as previous_id from recruiting.interviews where organization_id = $1) t`,
    [organizationId],
  );
  const { malformed, out_of_order: outOfOrder } = rows[0]!;
  if (Number(malformed) !== 0 || Number(outOfOrder) !== 0) throw new Error(`seeded ids: ${malformed} malformed, ${outOfOrder} out of created_at order`);
}

interface ListItem {
  id: string;
  createdAt: string;
}

interface Dataset {
  label: string;
  rows: Row[];
  /** Wall time to walk pages 1–99 one after another, following Link. */
  walkMs: number;
  /** The last item of page 99: the keyset position page 100 starts after. */
  page99Last: ListItem;
}

async function measureDataset(gatewayUrl: string, key: string, label: string, cpuSources: CpuSource[]): Promise<Dataset> {
  const headers = { authorization: `Bearer ${key}` };
  const firstPage = `${gatewayUrl}/api/v1/interviews?limit=${PAGE_SIZE}`;
  const { deepUrl, last: page99Last, walkMs } = await walkToDeepPage<ListItem>(gatewayUrl, firstPage, headers);
  const isPage = (after?: ListItem) => (body: unknown) => {
    const items = (body as { data?: ListItem[] } | null)?.data;
    return items?.length === PAGE_SIZE && (!after || Date.parse(items[0]!.createdAt) <= Date.parse(after.createdAt));
  };
  const rows = await measurePages('GET /api/v1/interviews', [
    { target: { name: `${label} | 1`, url: firstPage, method: 'GET', headers }, check: isPage() },
    { target: { name: `${label} | ${DEEP_PAGE}`, url: deepUrl, method: 'GET', headers }, check: isPage(page99Last) },
  ], cpuSources);
  return { label, rows, walkMs, page99Last };
}

/** The service's page query (listInterviews: selectInterviews + olderThan + order + limit + 1), explained. */
async function explainDeepPage(db: pg.Client, organizationId: string, after: ListItem): Promise<string[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(
    `explain (analyze, buffers)
     select i.*, c.email as candidate_email, c.name as candidate_name
     from recruiting.interviews as i inner join recruiting.candidates as c on c.id = i.candidate_id
     where i.organization_id = $1 and (i.created_at, i.id) < ($2, $3)
     order by i.created_at desc, i.id desc limit $4`,
    [organizationId, new Date(after.createdAt), after.id, PAGE_SIZE + 1],
  );
  return rows.map((r) => r['QUERY PLAN']);
}

await runBench('bench-interviews', async (bench) => {
  const { env, gatewayUrl, startedAt } = bench;
  const busy = otherWorkloads();
  const cpuSources = stackCpuSources(bench);
  const organization = await newOrganization(bench, 'Benchmark interviews', ['read', 'write']);
  const db = await seedingSession(bench, 'bench-interviews');

  const box = new SecretBox(parseKeyRing(env['INVITE_TOKEN_KEYS']!, 'aes256'));
  const sealedTokens = Array.from({ length: CANDIDATES }, () => box.seal(randomBytes(32).toString('base64url')));
  const seed: Seed = { organizationId: organization.id, positionId: newId('pos', Date.now() - YEAR_MS - 2 * DAY_MS), end: Date.now(), sealedTokens };
  const seeding: string[] = [];

  step(`Seeding ${SMALL.toLocaleString('en')} interviews (1 position, ${CANDIDATES} candidates)`);
  let started = performance.now();
  await seedPositionAndCandidates(db, seed);
  // Every 100th slot of the year: 10 000 interviews spread over the same year as the million.
  const small = await insertInterviews(db, seed, { from: LARGE / SMALL, to: LARGE, by: LARGE / SMALL, where: 'true' });
  const smallInsert = secondsSince(started);
  started = performance.now();
  await db.query('vacuum (analyze) recruiting.interviews');
  seeding.push(`| ${small.toLocaleString('en')} | 1 | ${smallInsert} s | ${secondsSince(started)} s |`);
  await checkIds(db, seed.organizationId);
  const datasets = [await measureDataset(gatewayUrl, organization.apiKey.key, `${SMALL.toLocaleString('en')}`, cpuSources)];

  step(`Growing the same organization to ${LARGE.toLocaleString('en')} interviews (statements of ~100 000 rows)`);
  started = performance.now();
  let large = small;
  let statements = 0;
  for (let from = 1; from <= LARGE; from += CHUNK_SLOTS) {
    large += await insertInterviews(db, seed, { from, to: Math.min(LARGE, from + CHUNK_SLOTS - 1), by: 1, where: `n % ${LARGE / SMALL} <> 0` });
    statements++;
    step(`  ${large.toLocaleString('en')} interviews (${secondsSince(started)} s)`);
  }
  const largeInsert = secondsSince(started);
  started = performance.now();
  await db.query('vacuum (analyze) recruiting.interviews');
  await checkIds(db, seed.organizationId);
  seeding.push(`| ${(large - small).toLocaleString('en')} more (${large.toLocaleString('en')} in all) | ${statements} | ${largeInsert} s | ${secondsSince(started)} s |`);
  const largeDataset = await measureDataset(gatewayUrl, organization.apiKey.key, `${LARGE.toLocaleString('en')}`, cpuSources);
  datasets.push(largeDataset);
  const plan = await explainDeepPage(db, organization.id, largeDataset.page99Last);

  // Scheduling: every request a new candidate e-mail (so a candidate and an interview are created), the one position.
  let sent = 0;
  const run = Date.now().toString(36);
  const schedule = (): string => JSON.stringify({ positionId: seed.positionId, candidate: { email: `post-${run}-${++sent}@bench.example`, name: 'Bench Candidate' } });
  const post: LoadTarget = {
    name: 'POST /api/v1/interviews',
    url: `${gatewayUrl}/api/v1/interviews`,
    method: 'POST',
    headers: { authorization: `Bearer ${organization.apiKey.key}`, 'content-type': 'application/json' },
    requests: [{ method: 'POST', path: '/api/v1/interviews', setupRequest: (request) => ({ ...request, body: schedule() }) }],
  };
  await verifyTarget(post, (body) => (body as { data?: { status?: string } } | null)?.data?.status === 'scheduled', 201);
  step(`Measuring POST /api/v1/interviews (a new candidate each): ${WARMUP_SECONDS} s warm-up, then ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
  const postRow = await measureLoadWithCpu(post, TIMING, cpuSources);
  busy.push(...otherWorkloads());

  // The same schedule with an Idempotency-Key (PRODUCT.md §6): a new key each, which the gateway
  // stores with the reply and the owning service records with the body's fingerprint; then one
  // key and body sent again and again, each a replay of the stored reply.
  const keyed = (key: () => string): LoadTarget => ({
    ...post,
    name: `${post.name} with Idempotency-Key`,
    requests: [{ method: 'POST', path: '/api/v1/interviews', setupRequest: (request) => ({ ...request, headers: { ...post.headers, 'idempotency-key': key() }, body: schedule() }) }],
  });
  const newKeys = keyed(() => `bench-${run}-${sent}`);
  await verifyTarget(newKeys, (body) => (body as { data?: { status?: string } } | null)?.data?.status === 'scheduled', 201);
  step('Measuring the same with a new Idempotency-Key each');
  const keyedRow = await measureLoadWithCpu(newKeys, TIMING, cpuSources);
  busy.push(...otherWorkloads());
  const replayBody = schedule();
  const replays: LoadTarget = { ...post, name: `${post.name}, one Idempotency-Key replayed`, headers: { ...post.headers, 'idempotency-key': `bench-${run}-replay` }, body: replayBody, requests: undefined };
  await verifyTarget(replays, (body) => (body as { data?: { status?: string } } | null)?.data?.status === 'scheduled', 201);
  step('Measuring replays of one stored Idempotency-Key');
  const replayRow = await measureLoadWithCpu(replays, TIMING, cpuSources);
  busy.push(...otherWorkloads());

  const loadRows = datasets.flatMap((d) => d.rows);
  const lines = [
    `Command: \`npm run bench:interviews\` (autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per row, loopback)`,
    `Date: ${startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    'Seeding (SQL into recruiting.*, generate_series, triggers off; then `vacuum (analyze) recruiting.interviews`):',
    '',
    '| interviews inserted | statements | insert | vacuum + analyze |',
    '|---|---:|---:|---:|',
    ...seeding,
    '',
    `GET /api/v1/interviews?limit=${PAGE_SIZE}, one organization; page ${DEEP_PAGE} is the URL reached by following \`Link: rel="next"\` ${DEEP_PAGE - 1} times:`,
    '',
    ...pageTable(loadRows),
    '',
    ...datasets.map((d) => `Walking pages 1–${DEEP_PAGE - 1} one request at a time at ${d.label}: ${Math.round(d.walkMs)} ms (${(d.walkMs / (DEEP_PAGE - 1)).toFixed(1)} ms a page).`),
    '',
    `| POST | req/s | p50 ms | p99 ms | 201s | other answers | CPU ms/request | other load |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...([[postRow, 'new candidate each'], [keyedRow, 'new candidate and key each'], [replayRow, 'one stored reply']] as const).map(([row, what]) =>
      `| ${row.target} (${what}, at ${large.toLocaleString('en')}) | ${Math.round(row.result.requests.mean)} | ${row.result.latency.p50} | ${row.result.latency.p99} | ${row.result['2xx']} | ${row.result.non2xx} | ${cpuPerRequest(row.cpu, row.result)} | ${otherLoad(row.cpu)} |`),
    '',
    ...CPU_COLUMNS_NOTE,
    '',
    `EXPLAIN (ANALYZE, BUFFERS) of the service's query for page ${DEEP_PAGE} at ${large.toLocaleString('en')} (summary):`,
    '',
    '```',
    ...planSummary(plan, 'interviews'),
    '```',
  ];
  const notes = failureNotes([...loadRows, postRow, keyedRow, replayRow]);
  for (const { target, result } of loadRows) if (result.non2xx > 0) notes.push(`${target}: ${result.non2xx} non-2xx answers.`);
  if (notes.length) lines.push('', ...notes);
  lines.push(...loadNote(busy));
  step('Full plan:');
  process.stdout.write(`${plan.join('\n')}\n`);
  return `${lines.join('\n')}\n`;
});
