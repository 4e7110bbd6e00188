import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { assertError, assertValidation, unique } from './api-assertions.js';
import { newPosition, schedule, startInvite, tokenOf, uniqueEmail } from './interview-helpers.js';

// PRODUCT.md §7 Candidate and Position updates; issue 11 item 5 (PATCH, events, closing, ATS).

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 6000);

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

/** The recruiting outbox events of one resource, oldest first. */
async function eventsOf(orgId: string, type: string, id: string) {
  const { rows } = await db.query<{ payload: { type: string; data: Record<string, any> } }>(
    `select payload from recruiting.outbox where organization_id = $1 and type = $2 and payload->'data'->>'id' = $3 order by created_at, id`,
    [orgId, type, id],
  );
  return rows.map((r) => r.payload);
}

async function newCandidate(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/candidates', { key, body: { email: uniqueEmail('upd'), name: 'Grace Hopper', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, any>;
}

describe('PATCH /api/v1/candidates/{id}', () => {
  it('changes the given fields, merges metadata (null removes a key) and emits candidate.updated', async () => {
    const org = await newOrg();
    const c = await newCandidate(org.key, { phone: '+1 555 0100', metadata: { team: 'core', source: 'referral' } });
    const email = uniqueEmail('new');
    const res = await call('PATCH', `/api/v1/candidates/${c.id}`, { key: org.key, body: { name: 'Grace B. Hopper', email, metadata: { source: null, level: 'senior' } } });
    assert.equal(res.status, 200, res.text);
    const u = res.body.data;
    assert.equal(u.id, c.id);
    assert.equal(u.name, 'Grace B. Hopper');
    assert.equal(u.email, email);
    assert.equal(u.phone, '+1 555 0100');
    assert.deepEqual(u.metadata, { team: 'core', level: 'senior' });
    assert.equal(u.createdAt, c.createdAt);
    assert.ok(Date.parse(u.updatedAt) >= Date.parse(c.updatedAt));
    const fetched = await call('GET', `/api/v1/candidates/${c.id}`, { key: org.key });
    assert.deepEqual(fetched.body.data, u);
    const events = await eventsOf(org.organization.id, 'candidate.updated', c.id);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.data, u);

    const cleared = await call('PATCH', `/api/v1/candidates/${c.id}`, { key: org.key, body: { phone: null } });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.data.phone, null);
    assert.equal((await eventsOf(org.organization.id, 'candidate.updated', c.id)).length, 2);
  });

  it('a change that changes nothing is 200 without an event', async () => {
    const org = await newOrg();
    const c = await newCandidate(org.key);
    const res = await call('PATCH', `/api/v1/candidates/${c.id}`, { key: org.key, body: { name: c.name } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, c);
    assert.deepEqual(await eventsOf(org.organization.id, 'candidate.updated', c.id), []);
  });

  it("another candidate's e-mail (any case) is 409 candidate_exists with that candidate's id", async () => {
    const org = await newOrg();
    const a = await newCandidate(org.key);
    const b = await newCandidate(org.key);
    const res = await call('PATCH', `/api/v1/candidates/${b.id}`, { key: org.key, body: { email: a.email.toUpperCase() } });
    assertError(res, 409, 'candidate_exists');
    assert.equal(res.body.error.candidateId, a.id);
    const own = await call('PATCH', `/api/v1/candidates/${b.id}`, { key: org.key, body: { email: b.email.toUpperCase() } });
    assert.equal(own.status, 200, own.text);
  });

  it('404 for an unknown or another organization\'s candidate; 422 for bad fields; 403 with a read key', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const c = await newCandidate(other.key);
    assertError(await call('PATCH', `/api/v1/candidates/${c.id}`, { key: org.key, body: { name: 'X' } }), 404, 'not_found');
    const mine = await newCandidate(org.key);
    assertValidation(await call('PATCH', `/api/v1/candidates/${mine.id}`, { key: org.key, body: { email: 'not-an-email' } }), 'email');
    assertValidation(await call('PATCH', `/api/v1/candidates/${mine.id}`, { key: org.key, body: { name: 'A', unknown: 1 } }));
    assertValidation(await call('PATCH', `/api/v1/candidates/${mine.id}`, { key: org.key, body: { name: '' } }), 'name');
    const reader = await newOrganizationWithKey(['read']);
    assertError(await call('PATCH', `/api/v1/candidates/${mine.id}`, { key: reader.key, body: { name: 'X' } }), 403, 'insufficient_scope');
  });

  it('ATS candidate.updated takes the same path: the change and a candidate.updated event', async () => {
    const org = await newOrg();
    const externalId = `gh-${unique()}`;
    const body = { source: 'greenhouse', eventId: `ev-${unique()}`, type: 'candidate.created', occurredAt: new Date().toISOString(), candidate: { externalId, email: uniqueEmail('ats'), name: 'Katherine Johnson' } };
    assert.equal((await call('POST', '/api/v1/ats/events', { key: org.key, body })).status, 202);
    const byExternal = () => call('GET', `/api/v1/candidates?externalId=${externalId}`, { key: org.key });
    const created = (await eventually(byExternal, (r) => r.body.data?.length === 1, 30_000)).body.data[0];
    const update = { ...body, eventId: `ev-${unique()}`, type: 'candidate.updated', candidate: { externalId, name: 'Katherine G. Johnson' } };
    assert.equal((await call('POST', '/api/v1/ats/events', { key: org.key, body: update })).status, 202);
    const updated = (await eventually(byExternal, (r) => r.body.data?.[0]?.name === 'Katherine G. Johnson', 30_000)).body.data[0];
    assert.equal(updated.id, created.id);
    const events = await eventsOf(org.organization.id, 'candidate.updated', created.id);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.name, 'Katherine G. Johnson');
  });
});

describe('PATCH /api/v1/positions/{id}', () => {
  it('changes any field and emits position.updated', async () => {
    const org = await newOrg();
    const p = await newPosition(org.key, { department: 'Platform' });
    const res = await call('PATCH', `/api/v1/positions/${p.id}`, { key: org.key, body: { title: 'Staff Engineer', department: null, employmentType: 'contract', interviewQuestions: ['One?'] } });
    assert.equal(res.status, 200, res.text);
    const u = res.body.data;
    assert.equal(u.title, 'Staff Engineer');
    assert.equal(u.department, null);
    assert.equal(u.employmentType, 'contract');
    assert.deepEqual(u.interviewQuestions, ['One?']);
    assert.equal(u.status, 'open');
    assert.deepEqual((await call('GET', `/api/v1/positions/${p.id}`, { key: org.key })).body.data, u);
    const events = await eventsOf(org.organization.id, 'position.updated', p.id);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.data, u);
  });

  it('closing stops new interviews with 409 position_closed; open ones go on; reopening allows them again', async () => {
    const org = await newOrg();
    const p = await newPosition(org.key);
    const before = await schedule(org.key, p.id);
    const closed = await call('PATCH', `/api/v1/positions/${p.id}`, { key: org.key, body: { status: 'closed' } });
    assert.equal(closed.status, 200, closed.text);
    assert.equal(closed.body.data.status, 'closed');
    const refused = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: p.id, candidate: { email: uniqueEmail(), name: 'Late Comer' } } });
    assertError(refused, 409, 'position_closed');
    const started = await startInvite(tokenOf(before.inviteUrl));
    assert.equal(started.status, 303, started.text);
    assert.equal((await call('GET', `/api/v1/interviews/${before.id}`, { key: org.key })).body.data.status, 'in_progress');
    assert.equal((await call('PATCH', `/api/v1/positions/${p.id}`, { key: org.key, body: { status: 'open' } })).status, 200);
    await schedule(org.key, p.id);
  });

  it('404 for another organization\'s position; 422 for a bad status', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const p = await newPosition(other.key);
    assertError(await call('PATCH', `/api/v1/positions/${p.id}`, { key: org.key, body: { status: 'closed' } }), 404, 'not_found');
    const mine = await newPosition(org.key);
    assertValidation(await call('PATCH', `/api/v1/positions/${mine.id}`, { key: org.key, body: { status: 'archived' } }), 'status');
  });
});
