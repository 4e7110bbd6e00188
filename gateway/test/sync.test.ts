import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import { SearchCandidatesQuery } from '@hireloop/contracts';
import { CursorCodec, parseKeyRing } from '@hireloop/platform';
import { listCandidates } from '@hireloop/recruiting/candidates/candidates.queries';
import type { RecruitingDB } from '@hireloop/recruiting/db';
import { call, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { assertError, assertValidation, nextPath } from './api-assertions.js';
import { newPosition, schedule, uniqueEmail } from './interview-helpers.js';

// PRODUCT.md §5 incremental sync; CLARIFICATIONS "Erasure and sync"; issue 11 item 6.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 100_000);
const EPOCH = '1970-01-01T00:00:00Z';

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

type Item = { id: string; updatedAt: string } & Record<string, any>;

/**
 * What a client runs: follow `Link: rel="next"` page by page; an empty page (no link) means
 * caught up, and the client keeps that URL for its next run. Returns the items in walk order.
 */
async function syncOnce(key: string, from: string, seen: Item[]): Promise<string> {
  let path = from;
  for (;;) {
    const res = await call('GET', path, { key });
    assert.equal(res.status, 200, res.text);
    const items = res.body.data as Item[];
    seen.push(...items);
    const next = nextPath(res);
    if (items.length === 0) {
      assert.equal(next, null, 'an empty page has no next link');
      return path;
    }
    assert.ok(next, 'a page with items links to the next one, also at the end');
    path = next;
  }
}

/** Walks until every record's current version has been seen (the lag passes), polling. */
async function syncUntil(key: string, from: string, seen: Item[], done: () => Promise<boolean>): Promise<string> {
  let path = from;
  for (let round = 0; round < 300; round++) {
    path = await syncOnce(key, path, seen);
    if (await done()) return path;
    await sleep(250);
  }
  assert.fail('the sync never caught up');
}

/** The current version of every record of a plain list (newest first), as `id@updatedAt`. */
async function currentVersions(key: string, list: string): Promise<Set<string>> {
  const out = new Set<string>();
  let path: string | null = `${list}?limit=100`;
  while (path) {
    const res: ApiResponse<Record<string, any>> = await call('GET', path, { key });
    assert.equal(res.status, 200, res.text);
    for (const item of res.body.data as Item[]) out.add(`${item.id}@${item.updatedAt}`);
    path = nextPath(res);
  }
  return out;
}

function assertWalk(seen: Item[]) {
  const versions = seen.map((i) => `${i.id}@${i.updatedAt}`);
  assert.equal(new Set(versions).size, versions.length, 'no version is seen twice');
  for (let i = 1; i < seen.length; i++) {
    assert.ok(seen[i - 1]!.updatedAt <= seen[i]!.updatedAt, `ascending by updatedAt: ${seen[i - 1]!.updatedAt} then ${seen[i]!.updatedAt}`);
  }
}

describe('GET /api/v1/candidates?updatedAfter=… (incremental sync)', () => {
  it('a client walking while writes continue sees every record, each version once, in order, and its final state', async () => {
    const org = await newOrg();
    const seen: Item[] = [];
    const ids: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 24; i++) {
        const res = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('sync'), name: `Sync ${i}` } });
        assert.equal(res.status, 201, res.text);
        ids.push(res.body.data.id);
        if (i % 3 === 2) {
          const target = ids[Math.floor(ids.length / 2)]!;
          const upd = await call('PATCH', `/api/v1/candidates/${target}`, { key: org.key, body: { metadata: { round: String(i) } } });
          assert.equal(upd.status, 200, upd.text);
        }
      }
      writing = false;
    })();
    let path = `/api/v1/candidates?updatedAfter=${EPOCH}&limit=3`;
    // Walk during the writes, then until the final state is in.
    while (writing) {
      path = await syncOnce(org.key, path, seen);
      await sleep(100);
    }
    await writer;
    const final = await currentVersions(org.key, '/api/v1/candidates');
    assert.equal(final.size, 24);
    path = await syncUntil(org.key, path, seen, async () => [...final].every((v) => seen.some((s) => `${s.id}@${s.updatedAt}` === v)));
    assertWalk(seen);
    // Every version seen is one the outbox has an event for (a real create or update).
    const { rows } = await db.query<{ v: string }>(
      `select (payload->'data'->>'id') || '@' || (payload->'data'->>'updatedAt') as v from recruiting.outbox where organization_id = $1 and type in ('candidate.created', 'candidate.updated')`,
      [org.organization.id],
    );
    const events = new Set(rows.map((r) => r.v));
    for (const s of seen) assert.ok(events.has(`${s.id}@${s.updatedAt}`), `seen version ${s.id}@${s.updatedAt} has an event`);
    // Caught up: the next run from the kept URL returns nothing new.
    const again: Item[] = [];
    await syncOnce(org.key, path, again);
    assert.deepEqual(again, []);
  });

  it('takes microseconds in updatedAfter; the cursor is bound to updatedAfter and the other filters', async () => {
    const org = await newOrg();
    for (let i = 0; i < 3; i++) await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('us'), name: `Micro ${i}` } });
    const seen: Item[] = [];
    const path = await syncUntil(org.key, `/api/v1/candidates?updatedAfter=2000-01-01T00:00:00.123456Z&limit=2`, seen, async () => seen.length === 3);
    assert.equal(seen.length, 3);
    const first = await call('GET', `/api/v1/candidates?updatedAfter=${EPOCH}&limit=1`, { key: org.key });
    const cursor = new URL(nextPath(first)!, 'http://x').searchParams.get('cursor')!;
    assertValidation(await call('GET', `/api/v1/candidates?updatedAfter=2001-01-01T00:00:00Z&limit=1&cursor=${cursor}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', `/api/v1/candidates?limit=1&cursor=${cursor}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', `/api/v1/candidates?updatedAfter=yesterday`, { key: org.key }), 'updatedAfter');
    assert.ok(path.includes('cursor='));
  });
});

describe('updatedAfter takes every RFC 3339 instant', () => {
  // Found by schemathesis (docs/reliability.md "Independent fuzzing"): Postgres refuses offsets
  // beyond ±15:59 and the year 0000, and the watermark reached it as the client wrote it: a 500.
  it('offsets up to ±23:59 and the years 0000 and 9999 answer 200, on every list that takes it', async () => {
    const org = await newOrg();
    for (let i = 0; i < 2; i++) await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('tz'), name: `Offset ${i}` } });
    for (const list of ['candidates', 'positions', 'interviews']) {
      for (const after of ['2147-12-06T03:29:40.54+22:53', '2020-01-01T00:00:00.123456789-23:59', '0000-01-01T00:00:00Z', '0000-01-01T00:00:00+23:59', '9999-12-31T23:59:59-23:59']) {
        const res = await call('GET', `/api/v1/${list}?updatedAfter=${encodeURIComponent(after)}`, { key: org.key });
        assert.equal(res.status, 200, `${list} ${after}: ${res.text}`);
        if (after.startsWith('9999') || after.startsWith('2147')) assert.deepEqual(res.body.data, [], `${list} ${after}`);
      }
    }
    // The year 0000 is the beginning: the walk sees everything; +23:59 is that many hours earlier than UTC.
    const seen: Item[] = [];
    await syncUntil(org.key, `/api/v1/candidates?updatedAfter=0000-01-01T00:00:00Z&limit=1`, seen, async () => seen.length === 2);
    const shifted: Item[] = [];
    const aDayAhead = new Date(Date.parse(seen[0]!.updatedAt) + 23 * 3600_000).toISOString().replace('Z', '+23:59');
    await syncUntil(org.key, `/api/v1/candidates?updatedAfter=${encodeURIComponent(aDayAhead)}`, shifted, async () => shifted.length === 2);
    assert.deepEqual(shifted.map((i) => i.id), seen.map((i) => i.id));
  });
});

describe('updatedAfter on positions and interviews', () => {
  it('a position change, an interview status change and a candidate rename each appear again later in the walk', async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const interview = await schedule(org.key, position.id);
    const posSeen: Item[] = [];
    const intSeen: Item[] = [];
    const posPath = await syncUntil(org.key, `/api/v1/positions?updatedAfter=${EPOCH}`, posSeen, async () => posSeen.length === 1);
    let intPath = await syncUntil(org.key, `/api/v1/interviews?updatedAfter=${EPOCH}`, intSeen, async () => intSeen.length === 1);

    const closed = await call('PATCH', `/api/v1/positions/${position.id}`, { key: org.key, body: { status: 'closed' } });
    assert.equal(closed.status, 200, closed.text);
    await syncUntil(org.key, posPath, posSeen, async () => posSeen.length === 2);
    assert.equal(posSeen[1]!.status, 'closed');
    assert.equal(posSeen[1]!.updatedAt, closed.body.data.updatedAt);

    const renamed = await call('PATCH', `/api/v1/candidates/${interview.candidate.id}`, { key: org.key, body: { name: 'Renamed Person' } });
    assert.equal(renamed.status, 200, renamed.text);
    intPath = await syncUntil(org.key, intPath, intSeen, async () => intSeen.length === 2);
    assert.equal(intSeen[1]!.candidate.name, 'Renamed Person');

    const cancelled = await call('DELETE', `/api/v1/interviews/${interview.id}`, { key: org.key });
    assert.equal(cancelled.status, 200, cancelled.text);
    await syncUntil(org.key, intPath, intSeen, async () => intSeen.length === 3);
    assert.equal(intSeen[2]!.status, 'cancelled');
    assert.equal(intSeen[2]!.updatedAt, cancelled.body.data.updatedAt);
    assertWalk(posSeen);
    assertWalk(intSeen);
    assertError(await call('GET', `/api/v1/interviews?updatedAfter=${EPOCH}&cursor=bad.cursor`, { key: org.key }), 422, 'validation_failed');
  });
});

/** The statement recruiting's listCandidates runs for `query`, captured through kysely's log. */
async function listCandidatesStatement(organizationId: string, query: Record<string, string>, codec: CursorCodec): Promise<CompiledQuery> {
  const pool = new pg.Pool({ connectionString: testEnv().databaseUrl, max: 1 });
  let captured: CompiledQuery | undefined;
  const kysely = new Kysely<RecruitingDB>({ dialect: new PostgresDialect({ pool }), log: (event) => void (captured = event.query) });
  try {
    await listCandidates(kysely, codec, organizationId, SearchCandidatesQuery.parse(query), 6000);
  } finally {
    await kysely.destroy();
  }
  assert.ok(captured, 'listCandidates ran a statement');
  return captured;
}

describe('where the walk\'s index scan starts', () => {
  it('a page with a cursor scans from the cursor, not from the watermark: a caught-up poll reads a few index pages however many changes lie behind it', async () => {
    const org = await newOrg();
    const changes = 5000;
    // Historical changes (a day apart from a year ago, so all are past the walk's horizon); the
    // stamping trigger would overwrite `updated_at`, so this session skips triggers (superuser).
    const seeding = new pg.Client({ connectionString: testEnv().databaseUrl });
    await seeding.connect();
    try {
      await seeding.query(`set session_replication_role = replica`);
      await seeding.query(
        `insert into recruiting.candidates (id, organization_id, email, name, created_at, updated_at)
         select 'cand_scan' || lpad(n::text, 18, '0'), $1, 'scan-' || n || '@sync.example', 'Scan ' || n, t, t
         from (select n, now() - interval '400 days' + n * interval '1 hour' as t from generate_series(1, $2::int) n) s`,
        [org.organization.id, changes],
      );
    } finally {
      await seeding.end();
    }
    await db.query('analyze recruiting.candidates');
    const { rows: [newest] } = await db.query<{ id: string; at: string }>(
      `select id, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at from recruiting.candidates
       where organization_id = $1 order by updated_at desc, id desc limit 1`,
      [org.organization.id],
    );
    // The service's own statement for the poll of a client whose cursor is on the newest change
    // (the statement does not depend on the signing key, so any key ring makes the same one).
    const codec = new CursorCodec(parseKeyRing('k1:scan-test-key-0123456789abcdef-0123456789', 'secret'));
    const filters = { updatedAfter: EPOCH };
    const cursor = codec.encodeSync({ updatedAt: newest!.at, id: newest!.id }, { list: 'candidates', organizationId: org.organization.id, filters });
    const statement = await listCandidatesStatement(org.organization.id, { ...filters, limit: '25', cursor }, codec);
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (analyze, buffers, format json) ${statement.sql}`, [...statement.parameters]);
    const scan = findNode(rows[0]!['QUERY PLAN'][0].Plan, (n) => n['Index Name'] === 'candidates_org_updated');
    assert.ok(scan, 'the walk runs on the candidates_org_updated index');
    assert.equal(scan['Actual Rows'], 0, 'caught up: nothing after the cursor');
    // Starting at the watermark, the scan passed all 5 000 entries (~60 leaf pages) checking
    // the cursor's row comparison on each; starting at the cursor it reads one path down the tree.
    const buffers = scan['Shared Hit Blocks'] + scan['Shared Read Blocks'];
    assert.ok(buffers <= 8, `the caught-up poll read ${buffers} buffers; from the cursor it reads a root-to-leaf path`);
  });
});

interface PlanNode {
  'Index Name'?: string;
  'Actual Rows': number;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function findNode(node: PlanNode, match: (n: PlanNode) => boolean): PlanNode | undefined {
  if (match(node)) return node;
  for (const child of node.Plans ?? []) {
    const found = findNode(child, match);
    if (found) return found;
  }
  return undefined;
}

describe('the commit window (what makes the watermark commit-safe)', () => {
  it('refuses a transaction that commits later than the window after its change, and keeps one that commits in time', async () => {
    const org = await newOrg();
    const res = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('late'), name: 'Late Commit' } });
    const id = res.body.data.id as string;
    const client = new pg.Client({ connectionString: testEnv().databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`set local hireloop.sync_commit_window_ms = '100'`);
      await client.query(`update recruiting.candidates set name = 'Too Late', updated_at = now() where id = $1`, [id]);
      await client.query('select pg_sleep(0.3)');
      await assert.rejects(client.query('commit'), (err: { code?: string }) => err.code === '40001');
      await client.query('begin');
      await client.query(`set local hireloop.sync_commit_window_ms = '60000'`);
      await client.query(`update recruiting.candidates set name = 'In Time', updated_at = now() where id = $1`, [id]);
      await client.query('commit');
      // A write that does not mark the row changed (no new updated_at) is not a change for sync.
      const before = (await client.query(`select updated_at from recruiting.candidates where id = $1`, [id])).rows[0].updated_at;
      await client.query(`update recruiting.candidates set phone = phone where id = $1`, [id]);
      const after = (await client.query(`select updated_at from recruiting.candidates where id = $1`, [id])).rows[0].updated_at;
      assert.deepEqual(after, before);
    } finally {
      await client.end();
    }
    const fetched = await call('GET', `/api/v1/candidates/${id}`, { key: org.key });
    assert.equal(fetched.body.data.name, 'In Time');
  });
});
