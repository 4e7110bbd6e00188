import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newKey, newOrganizationWithKey, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { assertError, assertValidation, unique } from './api-assertions.js';
import { newPosition, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

// PRODUCT.md §7 Evaluation review, §10 human oversight; issue 11 item 2.

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

const reviewPath = (id: string) => `/api/v1/interviews/${id}/evaluation/review`;

describe('POST /api/v1/interviews/{id}/evaluation/review', () => {
  it('409 evaluation_not_ready until completed; then stored with the API key as reviewer, replaced by a later review, each with evaluation.reviewed', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } }), 409, 'evaluation_not_ready');
    await startInvite(tokenOf(i.inviteUrl));
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } }), 409, 'evaluation_not_ready');
    await submitInvite(tokenOf(i.inviteUrl), ['Because of the product.', 'A race in a cache.']);
    const done = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(done.review, null, 'no decision until a person makes one');

    const first = await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'hold', note: 'Second opinion first.' } });
    assert.equal(first.status, 200, first.text);
    const review = first.body.data.review;
    assert.equal(review.decision, 'hold');
    assert.equal(review.note, 'Second opinion first.');
    assert.equal(review.reviewer.type, 'api_key');
    assert.equal(review.reviewer.id, org.keyId);
    assert.equal(review.reviewer.name, 'test', 'the key\'s name');
    assert.ok(review.reviewedAt);
    assert.equal(first.body.data.overallScore, done.overallScore, 'the AI result is unchanged by the review');

    const other = await newKey(org.organization.id, ['read', 'write']);
    // `note: null`, as a review reads back, is no note (a client may echo a review it read).
    const second = await call('POST', reviewPath(i.id), { key: other.key, body: { decision: 'reject', note: null } });
    assert.equal(second.status, 200, second.text);
    assert.deepEqual({ ...second.body.data.review, reviewedAt: undefined }, { decision: 'reject', note: null, reviewer: { type: 'api_key', id: other.keyId, name: 'test' }, reviewedAt: undefined });
    const fetched = await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key });
    assert.deepEqual(fetched.body.data.review, second.body.data.review);

    const { rows } = await db.query<{ payload: { data: { review: { decision: string } } } }>(
      `select payload from recruiting.outbox where organization_id = $1 and type = 'evaluation.reviewed' and payload->'data'->>'interviewId' = $2 order by created_at, id`,
      [org.organization.id, i.id],
    );
    assert.deepEqual(rows.map((r) => r.payload.data.review.decision), ['hold', 'reject']);

    // The audit log keeps both decisions (PRODUCT.md §7), with the version each was on, a year long.
    const admin = await newKey(org.organization.id, ['admin']);
    const audit = await call('GET', `/api/v1/audit-events?action=evaluation.reviewed&resourceId=${i.id}`, { key: admin.key });
    assert.equal(audit.status, 200, audit.text);
    assert.deepEqual(
      audit.body.data.map((e: { actor: { id: string }; details?: unknown }) => [e.actor.id, e.details]),
      [[other.keyId, { decision: 'reject', version: 1 }], [org.keyId, { decision: 'hold', version: 1 }]],
    );
  });

  it('the console\'s review through /trpc is recorded with the session user as reviewer, who cannot name another', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const email = `reviewer-${unique()}@example.com`;
    const password = `pw-${unique()}-${unique()}`;
    await testIdentity().system.users.create.mutate({ organizationId: org.organization.id, email, name: 'Rita Reviewer', password });
    const login = await call('POST', '/auth/login', { body: { email, password } });
    assert.equal(login.status, 200, login.text);
    const user = login.body.data.user as { id: string; name: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    const i = await schedule(org.key, (await newPosition(org.key)).id);
    await startInvite(tokenOf(i.inviteUrl));
    await submitInvite(tokenOf(i.inviteUrl), ['Because of the product.', 'A race in a cache.']);
    await eventually(async () => (await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key })).body.data.status, (s) => s === 'completed');

    const review = (reviewer: { type: string; id: string; name: string }) =>
      call('POST', '/trpc/recruiting/evaluations.review', { headers: { cookie }, body: { interviewId: i.id, review: { decision: 'advance', note: 'Strong answers.' }, reviewer } });
    const impostor = await review({ type: 'api_key', id: org.keyId, name: 'test' });
    assert.equal(impostor.status, 403, impostor.text);
    assert.equal(impostor.body.error.data.appCode, 'forbidden');

    // Its own id with another name and kind: recorded as who the session is (found by a black-box run).
    const disguised = await review({ type: 'api_key', id: user.id, name: 'Chief Hiring Officer (ATS sync)' });
    assert.equal(disguised.status, 200, disguised.text);
    assert.deepEqual(disguised.body.result.data.review.reviewer, { type: 'user', id: user.id, name: 'Rita Reviewer' });

    const mine = await review({ type: 'user', id: user.id, name: user.name });
    assert.equal(mine.status, 200, mine.text);
    const fetched = await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key });
    assert.deepEqual({ ...fetched.body.data.review, reviewedAt: undefined }, { decision: 'advance', note: 'Strong answers.', reviewer: { type: 'user', id: user.id, name: 'Rita Reviewer' }, reviewedAt: undefined });
  });

  it('409 evaluation_unavailable for a cancelled interview; 404 for another organization; 422 for a bad decision; 403 with a read key', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'hire' } }), 'decision');
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance', note: '' } }), 'note');
    const other = await newOrganizationWithKey(['read', 'write']);
    assertError(await call('POST', reviewPath(i.id), { key: other.key, body: { decision: 'advance' } }), 404, 'not_found');
    const reader = await newKey(org.organization.id, ['read']);
    assertError(await call('POST', reviewPath(i.id), { key: reader.key, body: { decision: 'advance' } }), 403, 'insufficient_scope');
    assert.equal((await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key })).status, 200);
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } }), 409, 'evaluation_unavailable');
  });
});
