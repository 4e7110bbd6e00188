import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { call, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { assertError, assertValidation, nextPath } from './api-assertions.js';

// PRODUCT.md §7 Position, §5 lists, §4 limits, §3 errors. Every test makes its own organization.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write']);

async function createPosition(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/positions', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, any>;
}

/** Follows Link rel="next" from `path` to the end; returns the page sizes and the ids in order. */
async function walk(key: string, path: string) {
  const sizes: number[] = [];
  const ids: string[] = [];
  let next: string | null = path;
  while (next) {
    const res: ApiResponse<any> = await call('GET', next, { key });
    assert.equal(res.status, 200, res.text);
    sizes.push(res.body.data.length);
    ids.push(...res.body.data.map((p: { id: string }) => p.id));
    next = nextPath(res);
    assert.ok(sizes.length <= 10, 'runaway pagination');
  }
  return { sizes, ids };
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('POST /api/v1/positions', () => {
  let db: pg.Client;
  before(async () => {
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(() => db.end());

  it('only title is required: 201 with Location and the defaults (full_time, open, no questions)', async () => {
    const org = await newOrg();
    const res = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Backend Engineer' } });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    const p = res.body.data;
    assert.match(p.id, /^pos_[0-9A-Za-z]{10,40}$/);
    assert.equal(res.headers.get('location'), `/api/v1/positions/${p.id}`);
    assert.deepEqual(Object.keys(p).sort(), [
      'createdAt', 'department', 'description', 'employmentType', 'externalId', 'id', 'interviewQuestions', 'location', 'questions', 'rubric', 'status', 'title', 'updatedAt',
    ]);
    assert.equal(p.title, 'Backend Engineer');
    assert.equal(p.employmentType, 'full_time');
    assert.equal(p.status, 'open');
    assert.deepEqual(p.interviewQuestions, []);
    assert.equal(p.description, null);
    assert.equal(p.department, null);
    assert.equal(p.location, null);
    assert.equal(p.externalId, null);
    assert.match(p.createdAt, ISO_UTC);
    assert.match(p.updatedAt, ISO_UTC);
    const fetched = await call('GET', res.headers.get('location')!, { key: org.key });
    assert.deepEqual(fetched.body, { data: p });
  });

  it('201 with every field given', async () => {
    const org = await newOrg();
    const body = {
      title: 'Data Intern', description: 'Work on pipelines.', department: 'Data', location: 'Berlin', employmentType: 'internship',
      status: 'closed', externalId: `job-${Date.now()}`, interviewQuestions: ['Why data?', 'Tell us about SQL.'],
    };
    const p = await createPosition(org.key, body);
    for (const [k, v] of Object.entries(body)) assert.deepEqual(p[k], v, k);
  });

  it('accepts each employment type', async () => {
    const org = await newOrg();
    for (const employmentType of ['full_time', 'part_time', 'contract', 'internship', 'temporary']) {
      assert.equal((await createPosition(org.key, { title: `Role ${employmentType}`, employmentType })).employmentType, employmentType);
    }
  });

  it('records a position.created event with the same id and data', async () => {
    const org = await newOrg();
    const p = await createPosition(org.key, { title: 'Evented Role' });
    const { rows } = await db.query(
      `select payload from recruiting.outbox where organization_id = $1 and type = 'position.created' and payload->'data'->>'id' = $2`,
      [org.organization.id, p.id],
    );
    assert.equal(rows.length, 1);
    assert.match(rows[0].payload.id, /^evt_/);
    assert.equal(rows[0].payload.type, 'position.created');
    assert.deepEqual(rows[0].payload.data, p);
  });

  it('409 for an externalId already used in the organization', async () => {
    const org = await newOrg();
    const externalId = `job-dup-${Date.now()}`;
    await createPosition(org.key, { title: 'One', externalId });
    const res = await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'Two', externalId } });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'external_id_exists');
    assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
  });

  const validation: [string, Record<string, unknown>, string][] = [
    ['title is missing', { description: 'no title' }, 'title'],
    ['title is blank', { title: '   ' }, 'title'],
    ['title is longer than 200 characters', { title: 't'.repeat(201) }, 'title'],
    ['employmentType is not one of the five', { title: 'X', employmentType: 'freelance' }, 'employmentType'],
    ['status is not open or closed', { title: 'X', status: 'draft' }, 'status'],
    ['description is longer than 20 000 characters', { title: 'X', description: 'd'.repeat(20_001) }, 'description'],
    ['there are more than 20 interviewQuestions', { title: 'X', interviewQuestions: Array.from({ length: 21 }, (_, i) => `Question ${i}?`) }, 'interviewQuestions'],
    ['the body has an unknown field', { title: 'X', salary: 100000 }, 'salary'],
  ];
  for (const [when, body, path] of validation) {
    it(`422 validation_failed naming \`${path}\` when ${when}`, async () => {
      const org = await newOrg();
      assertValidation(await call('POST', '/api/v1/positions', { key: org.key, body }), path);
      const list = await call('GET', '/api/v1/positions', { key: org.key });
      assert.deepEqual(list.body.data, [], 'nothing created');
    });
  }

  it('accepts a 200-character title, a 20 000-character description and 20 questions', async () => {
    const org = await newOrg();
    const p = await createPosition(org.key, {
      title: 't'.repeat(200), description: 'd'.repeat(20_000), interviewQuestions: Array.from({ length: 20 }, (_, i) => `Question ${i}?`),
    });
    assert.equal(p.interviewQuestions.length, 20);
    assert.equal(p.description.length, 20_000);
  });
});

describe('GET /api/v1/positions', () => {
  it('lists newest first; pages with limit=3 over 7 positions: 3, 3, 1 following Link rel="next"', async () => {
    const org = await newOrg();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      created.push((await createPosition(org.key, { title: `Role ${i}` })).id);
      await sleep(3);
    }
    const { sizes, ids } = await walk(org.key, '/api/v1/positions?limit=3');
    assert.deepEqual(sizes, [3, 3, 1]);
    assert.equal(new Set(ids).size, 7, 'no duplicates');
    assert.deepEqual(ids, [...created].reverse());
  });

  it('filters by status, also across pages', async () => {
    const org = await newOrg();
    const open: string[] = [];
    const closed: string[] = [];
    for (let i = 0; i < 4; i++) {
      open.push((await createPosition(org.key, { title: `Open ${i}` })).id);
      closed.push((await createPosition(org.key, { title: `Closed ${i}`, status: 'closed' })).id);
      await sleep(3);
    }
    const openPages = await walk(org.key, '/api/v1/positions?status=open&limit=3');
    assert.deepEqual(openPages.sizes, [3, 1]);
    assert.deepEqual(openPages.ids, [...open].reverse());
    const closedPages = await walk(org.key, '/api/v1/positions?status=closed');
    assert.deepEqual(closedPages.ids, [...closed].reverse());
  });

  it('422 for a status that is neither open nor closed', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/positions?status=archived', { key: org.key }), 'status');
  });

  it('422 for a cursor used with a different status filter', async () => {
    const org = await newOrg();
    for (let i = 0; i < 2; i++) await createPosition(org.key, { title: `Role ${i}` });
    const next = nextPath(await call('GET', '/api/v1/positions?limit=1', { key: org.key }));
    assert.ok(next);
    assertValidation(await call('GET', `${next}&status=open`, { key: org.key }), 'cursor');
  });

  it('422 for an unknown query parameter and for limit 0 or 101', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/positions?department=Data', { key: org.key }), 'department');
    assertValidation(await call('GET', '/api/v1/positions?limit=0', { key: org.key }), 'limit');
    assertValidation(await call('GET', '/api/v1/positions?limit=101', { key: org.key }), 'limit');
  });
});

describe('GET /api/v1/positions/{id}', () => {
  it('200 with the position', async () => {
    const org = await newOrg();
    const p = await createPosition(org.key, { title: 'Readable', interviewQuestions: ['Q?'] });
    const res = await call('GET', `/api/v1/positions/${p.id}`, { key: org.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: p });
  });

  it('404 not_found for another organization\'s position and for an unknown id', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const p = await createPosition(a.key, { title: 'Theirs' });
    assertError(await call('GET', `/api/v1/positions/${p.id}`, { key: b.key }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/positions/pos_${'0'.repeat(23)}`, { key: a.key }), 404, 'not_found');
  });

  it('422 validation_failed for a malformed id', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/positions/not-an-id', { key: org.key }), 'id');
  });
});
