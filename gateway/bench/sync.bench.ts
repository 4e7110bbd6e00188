import pg from 'pg';
import { DummyDriver, Kysely, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler, sql, type CompiledQuery } from 'kysely';
import { SearchCandidatesQuery } from '@hireloop/contracts';
import { step } from '@hireloop/devstack/log';
import { changedSince, CursorCodec, parseKeyRing, updatedAtMicros, type SyncPosition } from '@hireloop/platform';
import { listCandidates } from '@hireloop/recruiting/candidates/candidates.queries';
import type { RecruitingDB } from '@hireloop/recruiting/db';
import { failureNotes, loadNote, machineDescription, newOrganization, otherWorkloads, planSummary, runBench, secondsSince, seedingSession, stackCpuSources, type CpuSource } from './bench-kit.js';
import { CONNECTIONS, CPU_COLUMNS_NOTE, DEEP_PAGE, DURATION_SECONDS, measurePages, PAGE_SIZE, pageTable, WARMUP_SECONDS, walkToDeepPage, type Row } from './page-walk.js';
import { hashColumns, idSql } from './seeded-ids.js';

/**
 * `npm run bench:sync` (issue 11): the incremental sync walk, GET /api/v1/candidates?updatedAfter=…
 * &limit=25, on page 1 and page 100 of one organization holding 10 000 and then
 * BENCH_CANDIDATES (default 1 000 000) candidates. Candidates are seeded with SQL straight into
 * recruiting.candidates (generate_series, ~100 000 rows a statement) with `updated_at` spread over
 * a past year in an order unrelated to their ids; the walk is then read through the gateway like a
 * sync client, following `Link: rel="next"` to reach page 100. The EXPLAIN is of the statement the
 * recruiting service's own listCandidates builds for page 100 (captured through kysely's log), and
 * of the statement it built before the scan started at the cursor ("before": the watermark kept
 * next to the cursor's row comparison), for page 100 and for a caught-up client's poll.
 */
const SMALL = 10_000;
const LARGE = Number(process.env['BENCH_CANDIDATES'] ?? 1_000_000);
/** Slots per INSERT of the second stage: ~100 000 rows a statement. */
const CHUNK_SLOTS = 101_010;
const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
/** A candidate is changed up to this long after it was created. */
const CHANGE_SPREAD_MS = 30 * DAY_MS;
const SLOT_MS = Math.floor(YEAR_MS / LARGE);

if (!Number.isInteger(LARGE) || LARGE < SMALL || LARGE % SMALL !== 0) throw new Error(`BENCH_CANDIDATES must be a multiple of ${SMALL}`);

interface Seed {
  organizationId: string;
  /** Epoch ms the year of creations starts at; every change is over a day before the run. */
  yearStart: number;
}

/**
 * Candidates for slots `from`..`to` (every `by`-th; `where` filters slots further). Slot n is created
 * at `year start + (n − 1) × slot` plus a sub-second offset, and changed a pseudo-random 0–30 days
 * later at microsecond precision, so the sync order `(updated_at, id)` is not the id order.
 * The seeding session has triggers off (seedingSession): stamp_updated_at would overwrite `updated_at`.
 */
async function insertCandidates(db: pg.Client, seed: Seed, range: { from: number; to: number; by: number; where: string }): Promise<number> {
  const { rowCount } = await db.query(
    `insert into recruiting.candidates (id, organization_id, email, name, created_at, updated_at)
     select id, $1, 'candidate-' || n || '@bench.example', 'Candidate ' || n, created_at,
            created_at + ((n * 2654435761) % ${CHANGE_SPREAD_MS}) * interval '1 millisecond' + ((n * 7919) % 1000) * interval '1 microsecond'
     from (select n, ${idSql('cand', 'ms', 'h')} as id, timestamptz 'epoch' + ms * interval '1 millisecond' as created_at
           from (select n, $2::bigint + (n - 1) * ${SLOT_MS} + (n * 7919) % 997 as ms, ${hashColumns(`'cand' || n`, 'h')}
                 from generate_series($3::bigint, $4::bigint, $5::bigint) n where ${range.where} offset 0) s) t`,
    [seed.organizationId, seed.yearStart, range.from, range.to, range.by],
  );
  return rowCount ?? 0;
}

/** Every seeded id has the shape of a real one and the set has the size we meant. */
async function checkSeed(db: pg.Client, organizationId: string, expected: number): Promise<void> {
  const { rows } = await db.query<{ total: string; malformed: string }>(
    `select count(*) as total, count(*) filter (where id !~ '^cand_[0-9A-Za-z]{23}$') as malformed from recruiting.candidates where organization_id = $1`,
    [organizationId],
  );
  const { total, malformed } = rows[0]!;
  if (Number(total) !== expected || Number(malformed) !== 0) throw new Error(`seeded candidates: ${total} (expected ${expected}), ${malformed} malformed ids`);
}

interface ListItem {
  id: string;
  updatedAt: string;
}

interface Dataset {
  label: string;
  rows: Row[];
  /** Wall time to walk pages 1–99 one after another, following Link. */
  walkMs: number;
  firstUrl: string;
  /** Page 100's URL (its cursor resumes after page 99). */
  deepUrl: string;
  /** The last item of page 99: page 100's cursor position. */
  cursorId: string;
}

/** `a` is not after `b` in the walk's order (`updatedAt` in ms, as the API shows it, then id). */
const notAfter = (a: ListItem, b: ListItem) => Date.parse(a.updatedAt) < Date.parse(b.updatedAt) || (a.updatedAt === b.updatedAt && a.id <= b.id);

async function measureDataset(gatewayUrl: string, key: string, label: string, updatedAfter: string, cpuSources: CpuSource[]): Promise<Dataset> {
  const headers = { authorization: `Bearer ${key}` };
  const firstPage = `${gatewayUrl}/api/v1/candidates?updatedAfter=${encodeURIComponent(updatedAfter)}&limit=${PAGE_SIZE}`;
  const inOrder = (items: ListItem[], previousLast: ListItem | undefined) =>
    (!previousLast || notAfter(previousLast, items[0]!)) && items.every((item, i) => i === 0 || notAfter(items[i - 1]!, item));
  const { deepUrl, last: page99Last, walkMs } = await walkToDeepPage<ListItem>(gatewayUrl, firstPage, headers, inOrder);
  const isPage = (after?: ListItem) => (body: unknown) => {
    const items = (body as { data?: ListItem[] } | null)?.data;
    return items?.length === PAGE_SIZE && (!after || notAfter(after, items[0]!));
  };
  const rows = await measurePages('GET /api/v1/candidates?updatedAfter', [
    { target: { name: `${label} | 1`, url: firstPage, method: 'GET', headers }, check: isPage() },
    { target: { name: `${label} | ${DEEP_PAGE}`, url: deepUrl, method: 'GET', headers }, check: isPage(page99Last) },
  ], cpuSources);
  return { label, rows, walkMs, firstUrl: firstPage, deepUrl, cursorId: page99Last.id };
}

/**
 * The statement recruiting's listCandidates runs for `pageUrl`, with its parameters: the function
 * itself runs once on a kysely whose log keeps the compiled statement.
 */
async function serviceStatement(env: Record<string, string>, organizationId: string, pageUrl: string): Promise<{ statement: CompiledQuery; updatedAfter: string }> {
  const pool = new pg.Pool({ connectionString: env['DATABASE_URL'], application_name: 'bench-sync-explain', max: 1 });
  let captured: CompiledQuery | undefined;
  const kysely = new Kysely<RecruitingDB>({ dialect: new PostgresDialect({ pool }), log: (event) => void (captured = event.query) });
  const query = SearchCandidatesQuery.parse(Object.fromEntries(new URL(pageUrl).searchParams));
  try {
    const codec = new CursorCodec(parseKeyRing(env['CURSOR_KEYS']!, 'secret'));
    await listCandidates(kysely, codec, organizationId, query, syncLagMs(env));
  } finally {
    await kysely.destroy();
  }
  if (!captured) throw new Error('listCandidates ran no statement');
  return { statement: captured, updatedAfter: query.updatedAfter! };
}

/** The walk's horizon, as the recruiting service sets it: twice the commit window. */
const syncLagMs = (env: Record<string, string>) => 2 * Number(env['SYNC_COMMIT_WINDOW_MS'] ?? 5000);

/**
 * "Before": listCandidates' statement for a page with a cursor as it was until the scan started at
 * the cursor, i.e. with the watermark `updated_at > updatedAfter` kept in front of the cursor's row
 * comparison (two lower bounds on `updated_at`; Postgres starts the index scan at the first).
 */
function watermarkStatement(env: Record<string, string>, organizationId: string, updatedAfter: string, position: SyncPosition): CompiledQuery {
  // Compiled only (kysely's "compile without a database" dialect); explain() runs it.
  const compiler = new Kysely<RecruitingDB>({
    dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (db) => new PostgresIntrospector(db), createQueryCompiler: () => new PostgresQueryCompiler() },
  });
  return compiler
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('erased_at', 'is', null)
    .select(updatedAtMicros())
    .where(sql<boolean>`${sql.ref('updated_at')} > ${updatedAfter}::timestamptz and ${changedSince(updatedAfter, position, syncLagMs(env))}`)
    .orderBy('updated_at')
    .orderBy('id')
    .limit(PAGE_SIZE + 1)
    .compile();
}

async function explain(db: pg.Client, sql: string, parameters: readonly unknown[]): Promise<string[]> {
  const { rows } = await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`, [...parameters]);
  return rows.map((r) => r['QUERY PLAN']);
}

/** The top node's shared buffers of a plan ("hit=65" → 65; reads counted too). */
function topBuffers(plan: string[]): number {
  const line = plan.find((l) => l.trim().startsWith('Buffers:')) ?? '';
  return [...line.matchAll(/(?:hit|read)=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
}

/** "65 buffers, 0.22 ms": the top node's buffers and the execution time of a plan. */
function cost(plan: string[]): string {
  const ms = plan.find((l) => l.startsWith('Execution Time:'))?.replace(/[^\d.]/g, '') ?? '?';
  return `${topBuffers(plan)} buffers, ${ms} ms`;
}

interface Plans {
  first: string[];
  deep: string[];
  /** Page 100's statement with its cursor on the last candidate of the walk: a caught-up client's poll. */
  caughtUp: string[];
  /** The same two with the watermark kept next to the cursor (watermarkStatement). */
  deepBefore: string[];
  caughtUpBefore: string[];
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the service's statements for page 1, page 100 and a caught-up
 * client's poll (page 100's statement with its cursor on the newest change), and of the "before"
 * statement for page 100 and the caught-up poll: the same rows, so any difference in buffers is
 * where the index scan starts.
 */
async function explainPages(env: Record<string, string>, db: pg.Client, organizationId: string, dataset: Dataset): Promise<Plans> {
  const { firstUrl, deepUrl, cursorId } = dataset;
  const first = await serviceStatement(env, organizationId, firstUrl);
  const deep = await serviceStatement(env, organizationId, deepUrl);
  const micros = (expr: string) => `to_char((${expr}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const { rows: [cursor] } = await db.query<{ at: string }>(`select ${micros('updated_at')} as at from recruiting.candidates where id = $1`, [cursorId]);
  // The last row of the walk, as a client that has caught up holds it in its stored URL.
  const { rows: [newest] } = await db.query<{ id: string; at: string }>(
    `select id, ${micros('updated_at')} as at from recruiting.candidates where organization_id = $1 and erased_at is null order by updated_at desc, id desc limit 1`,
    [organizationId],
  );
  const before = watermarkStatement(env, organizationId, deep.updatedAfter, { updatedAt: cursor!.at, id: cursorId });
  // The caught-up poll: the same statement with the cursor's position on the newest change.
  const caughtUp = (statement: CompiledQuery) => {
    const replace = new Map<unknown, unknown>([[cursor!.at, newest!.at], [cursorId, newest!.id]]);
    return statement.parameters.map((p) => (replace.has(p) ? replace.get(p) : p));
  };
  return {
    first: await explain(db, first.statement.sql, first.statement.parameters),
    deep: await explain(db, deep.statement.sql, deep.statement.parameters),
    caughtUp: await explain(db, deep.statement.sql, caughtUp(deep.statement)),
    deepBefore: await explain(db, before.sql, before.parameters),
    caughtUpBefore: await explain(db, before.sql, caughtUp(before)),
  };
}

await runBench('bench-sync', async (bench) => {
  const { env, gatewayUrl, startedAt } = bench;
  const busy = otherWorkloads();
  const cpuSources = stackCpuSources(bench);
  const organization = await newOrganization(bench, 'Benchmark sync', ['read']);
  // Seeding writes historical `updated_at`: the stamping trigger and the commit-window check are
  // for the services' writes, so this session skips triggers.
  const db = await seedingSession(bench, 'bench-sync');

  const end = Date.now() - CHANGE_SPREAD_MS - DAY_MS;
  const seed: Seed = { organizationId: organization.id, yearStart: end - YEAR_MS };
  const updatedAfter = new Date(seed.yearStart - DAY_MS).toISOString();
  const seeding: string[] = [];
  const stride = LARGE / SMALL;

  step(`Seeding ${SMALL.toLocaleString('en')} candidates`);
  let started = performance.now();
  const small = await insertCandidates(db, seed, { from: stride, to: LARGE, by: stride, where: 'true' });
  const smallInsert = secondsSince(started);
  started = performance.now();
  await db.query('vacuum (analyze) recruiting.candidates');
  seeding.push(`| ${small.toLocaleString('en')} | 1 | ${smallInsert} s | ${secondsSince(started)} s |`);
  await checkSeed(db, seed.organizationId, small);
  const datasets = [await measureDataset(gatewayUrl, organization.apiKey.key, SMALL.toLocaleString('en'), updatedAfter, cpuSources)];
  // Each data set's plans right after its measurement, before the table grows.
  const plans = [await explainPages(env, db, organization.id, datasets[0]!)];

  let large = small;
  if (LARGE > SMALL) {
    step(`Growing the same organization to ${LARGE.toLocaleString('en')} candidates (statements of ~100 000 rows)`);
    started = performance.now();
    let statements = 0;
    for (let from = 1; from <= LARGE; from += CHUNK_SLOTS) {
      large += await insertCandidates(db, seed, { from, to: Math.min(LARGE, from + CHUNK_SLOTS - 1), by: 1, where: `n % ${stride} <> 0` });
      statements++;
      step(`  ${large.toLocaleString('en')} candidates (${secondsSince(started)} s)`);
    }
    const largeInsert = secondsSince(started);
    started = performance.now();
    await db.query('vacuum (analyze) recruiting.candidates');
    await checkSeed(db, seed.organizationId, large);
    seeding.push(`| ${(large - small).toLocaleString('en')} more (${large.toLocaleString('en')} in all) | ${statements} | ${largeInsert} s | ${secondsSince(started)} s |`);
    datasets.push(await measureDataset(gatewayUrl, organization.apiKey.key, LARGE.toLocaleString('en'), updatedAfter, cpuSources));
    plans.push(await explainPages(env, db, organization.id, datasets[1]!));
  }
  busy.push(...otherWorkloads());

  const loadRows = datasets.flatMap((d) => d.rows);
  const lines = [
    `Command: \`npm run bench:sync\` (autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${DURATION_SECONDS} s per row, loopback)`,
    `Date: ${startedAt.toISOString()}`,
    `Machine: ${machineDescription()}`,
    '',
    'Seeding (SQL into recruiting.candidates, generate_series, triggers off; then `vacuum (analyze) recruiting.candidates`):',
    '',
    '| candidates inserted | statements | insert | vacuum + analyze |',
    '|---|---:|---:|---:|',
    ...seeding,
    '',
    `GET /api/v1/candidates?updatedAfter=${updatedAfter}&limit=${PAGE_SIZE}, one organization; page ${DEEP_PAGE} is the URL reached by following \`Link: rel="next"\` ${DEEP_PAGE - 1} times:`,
    '',
    ...pageTable(loadRows),
    '',
    ...datasets.map((d) => `Walking pages 1–${DEEP_PAGE - 1} one request at a time at ${d.label}: ${Math.round(d.walkMs)} ms (${(d.walkMs / (DEEP_PAGE - 1)).toFixed(1)} ms a page).`),
    '',
    ...CPU_COLUMNS_NOTE,
    '',
    `EXPLAIN (ANALYZE, BUFFERS) of listCandidates' statement for page ${DEEP_PAGE} at ${large.toLocaleString('en')} (summary):`,
    '',
    '```',
    ...planSummary(plans.at(-1)!.deep, 'candidates'),
    '```',
    '',
    `EXPLAIN (ANALYZE, BUFFERS) of the "before" statement (the watermark kept next to the cursor) for the caught-up poll at ${large.toLocaleString('en')} (summary):`,
    '',
    '```',
    ...planSummary(plans.at(-1)!.caughtUpBefore, 'candidates'),
    '```',
    '',
    `Shared buffers and execution time of the statement (from each EXPLAIN). "caught up": page ${DEEP_PAGE}'s statement with its cursor on the newest change, the poll of a client that has walked everything. "after": the service's statement, whose scan starts at the cursor; "before": the same with the watermark \`updated_at > updatedAfter\` kept next to the cursor's row comparison, as it was:`,
    '',
    `| dataset | page 1 | page ${DEEP_PAGE} after | page ${DEEP_PAGE} before | caught up after | caught up before |`,
    '|---|---:|---:|---:|---:|---:|',
    ...datasets.map((d, i) => `| ${d.label} | ${cost(plans[i]!.first)} | ${cost(plans[i]!.deep)} | ${cost(plans[i]!.deepBefore)} | ${cost(plans[i]!.caughtUp)} | ${cost(plans[i]!.caughtUpBefore)} |`),
  ];
  const notes = failureNotes(loadRows);
  for (const { target, result } of loadRows) if (result.non2xx > 0) notes.push(`${target}: ${result.non2xx} non-2xx answers.`);
  if (notes.length) lines.push('', ...notes);
  lines.push(...loadNote(busy));
  for (const [name, plan] of Object.entries(plans.at(-1)!)) {
    step(`Full plan (${name}):`);
    process.stdout.write(`${plan.join('\n')}\n`);
  }
  return `${lines.join('\n')}\n`;
});
