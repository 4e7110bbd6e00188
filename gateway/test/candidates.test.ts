import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { call, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { assertError, assertValidation, nextPath, unique } from './api-assertions.js';

// PRODUCT.md §7 Candidate, §5 lists, §4 limits, §3 errors. Every test makes its own organization.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write']);

const email = (label: string) => `${label}-${unique()}@example.com`;

async function createCandidate(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/candidates', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, any>;
}

/** Creates n candidates one after another, a few ms apart so their creation times differ. */
async function createMany(key: string, n: number, label = 'c') {
  const created: Record<string, any>[] = [];
  for (let i = 0; i < n; i++) {
    created.push(await createCandidate(key, { email: email(`${label}${i}`), name: `Candidate ${i}` }));
    await sleep(3);
  }
  return created;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('POST /api/v1/candidates', () => {
  let db: pg.Client;
  before(async () => {
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
  });
  after(() => db.end());

  it('201 with Location and every field of the candidate in a data envelope', async () => {
    const org = await newOrg();
    const body = { email: email('full'), name: 'Ada Lovelace', phone: '+44 20 7946 0000', externalId: `ext-${unique()}`, metadata: { source: 'referral', team: 'core' } };
    const res = await call('POST', '/api/v1/candidates', { key: org.key, body });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    const c = res.body.data;
    assert.match(c.id, /^cand_[0-9A-Za-z]{10,40}$/);
    assert.equal(res.headers.get('location'), `/api/v1/candidates/${c.id}`);
    assert.deepEqual(Object.keys(c).sort(), ['createdAt', 'email', 'externalId', 'id', 'metadata', 'name', 'phone', 'updatedAt']);
    assert.equal(c.email, body.email);
    assert.equal(c.name, body.name);
    assert.equal(c.phone, body.phone);
    assert.equal(c.externalId, body.externalId);
    assert.deepEqual(c.metadata, body.metadata);
    assert.match(c.createdAt, ISO_UTC);
    assert.match(c.updatedAt, ISO_UTC);
    assert.ok(Math.abs(Date.parse(c.createdAt) - Date.now()) < 60_000);
    const fetched = await call('GET', res.headers.get('location')!, { key: org.key });
    assert.equal(fetched.status, 200);
    assert.deepEqual(fetched.body.data, c);
  });

  it('with only email and name: phone and externalId are null, metadata is {}', async () => {
    const org = await newOrg();
    const c = await createCandidate(org.key, { email: email('min'), name: 'Min Imal' });
    assert.equal(c.phone, null);
    assert.equal(c.externalId, null);
    assert.deepEqual(c.metadata, {});
  });

  it('records a candidate.created event with the same id and data', async () => {
    const org = await newOrg();
    const c = await createCandidate(org.key, { email: email('event'), name: 'Evan Event' });
    const { rows } = await db.query(
      `select organization_id, type, payload from recruiting.outbox where organization_id = $1 and type = 'candidate.created' and payload->'data'->>'id' = $2`,
      [org.organization.id, c.id],
    );
    assert.equal(rows.length, 1);
    const payload = rows[0].payload;
    assert.match(payload.id, /^evt_/);
    assert.equal(payload.type, 'candidate.created');
    assert.deepEqual(payload.data, c);
  });

  it('409 candidate_exists with the existing candidateId for an e-mail already in the organization, whatever its case', async () => {
    const org = await newOrg();
    const address = email('dup');
    const first = await createCandidate(org.key, { email: address, name: 'First' });
    for (const again of [address, address.toUpperCase()]) {
      const res = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: again, name: 'Second' } });
      assertError(res, 409, 'candidate_exists');
      assert.equal(res.body.error.candidateId, first.id);
    }
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(address)}`, { key: org.key });
    assert.equal(list.body.data.length, 1);
    const events = await db.query(`select 1 from recruiting.outbox where organization_id = $1 and type = 'candidate.created'`, [org.organization.id]);
    assert.equal(events.rowCount, 1, 'no event for the refused duplicates');
  });

  it('the same e-mail in another organization is a different candidate', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const address = email('shared');
    const inA = await createCandidate(a.key, { email: address, name: 'In A' });
    const inB = await createCandidate(b.key, { email: address, name: 'In B' });
    assert.notEqual(inA.id, inB.id);
  });

  it('409 for an externalId already used in the organization', async () => {
    const org = await newOrg();
    const externalId = `ext-${unique()}`;
    await createCandidate(org.key, { email: email('ext1'), name: 'One', externalId });
    const res = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: email('ext2'), name: 'Two', externalId } });
    assert.equal(res.status, 409, res.text);
    assert.equal(res.body.error.code, 'external_id_exists');
    assert.notEqual(res.body.error.code, 'candidate_exists');
    assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
    const list = await call('GET', `/api/v1/candidates?externalId=${encodeURIComponent(externalId)}`, { key: org.key });
    assert.equal(list.body.data.length, 1);
  });

  const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`;
  const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
  const validation: [string, Record<string, unknown>, string][] = [
    ['email is missing', { name: 'No Mail' }, 'email'],
    ['email is not an e-mail address', { email: 'not-an-email', name: 'Bad Mail' }, 'email'],
    ['email is longer than 254 characters', { email: longEmail, name: 'Long Mail' }, 'email'],
    ['name is missing', { email: 'x@example.com' }, 'name'],
    ['name is longer than 200 characters', { email: 'x@example.com', name: 'n'.repeat(201) }, 'name'],
    ['the body has an unknown field', { email: 'x@example.com', name: 'X', nickname: 'x' }, 'nickname'],
    ['metadata has more than 50 keys', { email: 'x@example.com', name: 'X', metadata: manyKeys }, 'metadata'],
    ['a metadata value is not a string', { email: 'x@example.com', name: 'X', metadata: { age: 42 } }, 'metadata.age'],
  ];
  for (const [when, body, path] of validation) {
    it(`422 validation_failed naming \`${path}\` when ${when}`, async () => {
      const org = await newOrg();
      assertValidation(await call('POST', '/api/v1/candidates', { key: org.key, body }), path);
      const list = await call('GET', '/api/v1/candidates', { key: org.key });
      assert.deepEqual(list.body.data, [], 'nothing created');
    });
  }

  it('accepts a name of exactly 200 characters and metadata of exactly 50 keys', async () => {
    const org = await newOrg();
    const metadata = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v']));
    const c = await createCandidate(org.key, { email: email('limits'), name: 'n'.repeat(200), metadata });
    assert.equal(c.name.length, 200);
    assert.equal(Object.keys(c.metadata).length, 50);
  });
});

describe('GET /api/v1/candidates', () => {
  it('lists newest first in a data array', async () => {
    const org = await newOrg();
    const created = await createMany(org.key, 3);
    const res = await call('GET', '/api/v1/candidates', { key: org.key });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(res.body.data, [...created].reverse());
    assert.equal(res.headers.get('link'), null, 'one page only');
  });

  it('pages with limit=3 over 7 candidates: 3, 3, 1 following Link rel="next", no duplicates, none missed', async () => {
    const org = await newOrg();
    const created = await createMany(org.key, 7);
    const sizes: number[] = [];
    const seen: string[] = [];
    let path: string | null = '/api/v1/candidates?limit=3';
    while (path) {
      const res: ApiResponse<any> = await call('GET', path, { key: org.key });
      assert.equal(res.status, 200, res.text);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      path = nextPath(res);
      if (path) {
        assert.match(path, /^\/api\/v1\/candidates\?/);
        assert.equal(new URLSearchParams(path.split('?')[1]).get('limit'), '3', 'the next page keeps the limit');
      }
      assert.ok(sizes.length <= 3, 'at most three pages');
    }
    assert.deepEqual(sizes, [3, 3, 1]);
    assert.equal(new Set(seen).size, 7, 'no duplicates');
    assert.deepEqual(seen, created.map((c) => c.id).reverse(), 'all seven, newest first');
  });

  it('no Link header when the page is exactly full and nothing follows', async () => {
    const org = await newOrg();
    await createMany(org.key, 2);
    const res = await call('GET', '/api/v1/candidates?limit=2', { key: org.key });
    assert.equal(res.body.data.length, 2);
    assert.equal(res.headers.get('link'), null);
  });

  it('filters by email, case-insensitively', async () => {
    const org = await newOrg();
    const target = await createCandidate(org.key, { email: `Mixed.Case-${unique()}@Example.com`, name: 'Mixed' });
    await createMany(org.key, 2);
    const res = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(target.email.toLowerCase())}`, { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, [target]);
    const upper = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(target.email.toUpperCase())}`, { key: org.key });
    assert.deepEqual(upper.body.data, [target]);
    const none = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email('nobody'))}`, { key: org.key });
    assert.deepEqual(none.body.data, []);
  });

  it('filters by externalId', async () => {
    const org = await newOrg();
    const externalId = `ats-${unique()}`;
    const target = await createCandidate(org.key, { email: email('ext'), name: 'External', externalId });
    await createCandidate(org.key, { email: email('ext-other'), name: 'Other', externalId: `${externalId}-other` });
    const res = await call('GET', `/api/v1/candidates?externalId=${encodeURIComponent(externalId)}`, { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, [target]);
  });

  it('filters by createdAfter and createdBefore (exclusive bounds)', async () => {
    const org = await newOrg();
    const [a, b, c] = await createMany(org.key, 3);
    const q = (query: string) => call('GET', `/api/v1/candidates?${query}`, { key: org.key });
    const ids = (res: ApiResponse<any>) => res.body.data.map((x: { id: string }) => x.id);
    const after = await q(`createdAfter=${encodeURIComponent(a!.createdAt)}`);
    assert.equal(after.status, 200, after.text);
    assert.deepEqual(ids(after), [c!.id, b!.id]);
    const before = await q(`createdBefore=${encodeURIComponent(c!.createdAt)}`);
    assert.deepEqual(ids(before), [b!.id, a!.id]);
    const between = await q(`createdAfter=${encodeURIComponent(a!.createdAt)}&createdBefore=${encodeURIComponent(c!.createdAt)}`);
    assert.deepEqual(ids(between), [b!.id]);
    assertValidation(await q('createdAfter=yesterday'), 'createdAfter');
  });

  it('422 when a cursor is used with different filters than it was made with', async () => {
    const org = await newOrg();
    await createMany(org.key, 3);
    const first = await call('GET', '/api/v1/candidates?limit=1', { key: org.key });
    const next = nextPath(first);
    assert.ok(next);
    const cursor = new URLSearchParams(next.split('?')[1]).get('cursor')!;
    assert.ok(cursor);
    const withFilter = await call('GET', `/api/v1/candidates?limit=1&cursor=${encodeURIComponent(cursor)}&email=${encodeURIComponent('x@example.com')}`, { key: org.key });
    assertValidation(withFilter, 'cursor');
    const sameFilters = await call('GET', `/api/v1/candidates?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: org.key });
    assert.equal(sameFilters.status, 200, 'the same filters are fine');
  });

  it('422 for a tampered cursor (one character changed)', async () => {
    const org = await newOrg();
    await createMany(org.key, 3);
    const first = await call('GET', '/api/v1/candidates?limit=1', { key: org.key });
    const cursor = new URLSearchParams(nextPath(first)!.split('?')[1]).get('cursor')!;
    const flip = (s: string, i: number) => `${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
    for (const index of [0, Math.floor(cursor.length / 3), cursor.length - 1]) {
      const tampered = flip(cursor, index);
      assert.notEqual(tampered, cursor);
      const res = await call('GET', `/api/v1/candidates?limit=1&cursor=${encodeURIComponent(tampered)}`, { key: org.key });
      assertValidation(res, 'cursor');
    }
    assertValidation(await call('GET', '/api/v1/candidates?cursor=garbage', { key: org.key }), 'cursor');
  });

  it('422 for a cursor taken from another list or another organization', async () => {
    const org = await newOrg();
    const other = await newOrg();
    await createMany(org.key, 2);
    await createMany(other.key, 2);
    const first = await call('GET', '/api/v1/candidates?limit=1', { key: org.key });
    const cursor = new URLSearchParams(nextPath(first)!.split('?')[1]).get('cursor')!;
    assertValidation(await call('GET', `/api/v1/positions?cursor=${encodeURIComponent(cursor)}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', `/api/v1/candidates?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: other.key }), 'cursor');
  });

  it('an empty query parameter counts as absent (docs/api.md)', async () => {
    const org = await newOrg();
    await createMany(org.key, 2);
    const empty = await call('GET', '/api/v1/candidates?email=', { key: org.key });
    const none = await call('GET', '/api/v1/candidates', { key: org.key });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body.data, none.body.data);
  });

  it('422 validation_failed naming an unknown query parameter', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/candidates?name=Ada', { key: org.key }), 'name');
  });

  it('422 for limit 0 and limit 101; limits 1 and 100 are accepted', async () => {
    const org = await newOrg();
    for (const limit of ['0', '101', '-1', 'ten']) assertValidation(await call('GET', `/api/v1/candidates?limit=${limit}`, { key: org.key }), 'limit');
    for (const limit of ['1', '100']) assert.equal((await call('GET', `/api/v1/candidates?limit=${limit}`, { key: org.key })).status, 200);
  });

  it('never lists another organization\'s candidates', async () => {
    const a = await newOrg();
    const b = await newOrg();
    await createMany(a.key, 2);
    const res = await call('GET', '/api/v1/candidates', { key: b.key });
    assert.deepEqual(res.body.data, []);
  });
});

describe('GET /api/v1/candidates/{id}', () => {
  it('200 with the candidate', async () => {
    const org = await newOrg();
    const c = await createCandidate(org.key, { email: email('get'), name: 'Getty', metadata: { a: 'b' } });
    const res = await call('GET', `/api/v1/candidates/${c.id}`, { key: org.key });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: c });
  });

  it('404 not_found for another organization\'s candidate and for an unknown id', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const c = await createCandidate(a.key, { email: email('theirs'), name: 'Theirs' });
    assertError(await call('GET', `/api/v1/candidates/${c.id}`, { key: b.key }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/candidates/cand_${'0'.repeat(23)}`, { key: a.key }), 404, 'not_found');
  });

  it('422 validation_failed for a malformed id', async () => {
    const org = await newOrg();
    for (const id of ['not-an-id', 'cand_x', `pos_${'0'.repeat(23)}`]) {
      assertValidation(await call('GET', `/api/v1/candidates/${id}`, { key: org.key }), 'id');
    }
  });
});
