import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newKey, newOrganizationWithKey, testIdentity } from '@hireloop/devstack/testing';
import { assertError, assertValidation, nextPath } from './api-assertions.js';
import { startReceiver } from './webhook-receiver.js';
import { declineInvite, newPosition, schedule, startInvite, submitInvite, tokenOf, uniqueEmail } from './interview-helpers.js';

/**
 * Regulated hiring as an outside client probes it (PRODUCT.md §5 sync, §7, §10; CLARIFICATIONS
 * "Erasure and sync"): the edges the happy-path tests of consent, review, erasure, audit and sync
 * leave out — a decision twice or on an erased person, consent withdrawn mid-interview, erasing
 * twice or an unknown id, bad audit filters, tampered cursors, a watermark in the future.
 */
type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const reviewPath = (id: string) => `/api/v1/interviews/${id}/evaluation/review`;
const EPOCH = '1970-01-01T00:00:00Z';

/** Flips one character in the middle of a cursor: the HMAC no longer matches. */
function tamper(cursor: string): string {
  const at = Math.floor(cursor.length / 2);
  return cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
}

function cursorOf(res: Parameters<typeof nextPath>[0]): string {
  const next = nextPath(res);
  assert.ok(next, 'a next page');
  return new URL(next, 'http://x').searchParams.get('cursor')!;
}

async function completed(org: Org) {
  const i = await schedule(org.key, (await newPosition(org.key)).id);
  const token = tokenOf(i.inviteUrl);
  assert.equal((await startInvite(token)).status, 303);
  assert.equal((await submitInvite(token, ['Because of the product.', 'A race in a cache.'])).status, 303);
  const evaluation = await eventually(
    async () => (await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key })).body.data,
    (e) => e?.status === 'completed' || e?.status === 'failed',
  );
  assert.equal(evaluation.status, 'completed', JSON.stringify(evaluation));
  return { ...i, token, evaluation };
}

describe('a person\'s decision: the edges', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });

  it('the same decision twice is two reviews in the trail; the evaluation shows the last; the AI fields never change', async () => {
    const i = await completed(org);
    const first = await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } });
    assert.equal(first.status, 200, first.text);
    const second = await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance', note: 'Confirmed.' } });
    assert.equal(second.status, 200, second.text);
    assert.equal(second.body.data.review.note, 'Confirmed.');
    assert.ok(second.body.data.review.reviewedAt >= first.body.data.review.reviewedAt);
    for (const field of ['overallScore', 'recommendation', 'summary', 'model', 'completedAt']) {
      assert.deepEqual(second.body.data[field], i.evaluation[field], field);
    }
    const trail = await call('GET', `/api/v1/audit-events?action=evaluation.reviewed&actorId=${org.keyId}&limit=100`, { key: org.key });
    assert.equal(trail.status, 200, trail.text);
    const mine = trail.body.data.filter((e: { resource: { id: string } }) => e.resource.id === i.id);
    assert.equal(mine.length, 2, JSON.stringify(trail.body.data));
    assert.equal(mine[0].requestId, second.headers.get('x-request-id'), 'newest first');
  });

  it('refuses a body that names the reviewer or carries unknown fields (the surface names the reviewer)', async () => {
    const i = await completed(org);
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance', reviewer: { type: 'user', id: 'usr_x', name: 'Someone' } } }));
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: {} }), 'decision');
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'ADVANCE' } }), 'decision');
    assertValidation(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance', note: 'x'.repeat(20_001) } }), 'note');
    assert.equal((await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key })).body.data.review, null);
  });

  it('a decision on a declined interview is 409 evaluation_unavailable; on an unknown one 404, a malformed id 422 as on every route', async () => {
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    assert.equal((await declineInvite(tokenOf(i.inviteUrl))).status, 303);
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'reject' } }), 409, 'evaluation_unavailable');
    assertError(await call('POST', reviewPath('int_00000000000000000000000000'), { key: org.key, body: { decision: 'reject' } }), 404, 'not_found');
    assertValidation(await call('POST', reviewPath('nonsense'), { key: org.key, body: { decision: 'reject' } }), 'id');
  });

  it('a decision on an erased person is 404, and records nothing', async () => {
    const i = await completed(org);
    const erased = await call('DELETE', `/api/v1/candidates/${i.candidate.id}`, { key: org.key });
    assert.equal(erased.status, 202, erased.text);
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key }), 404, 'not_found');
    const trail = await call('GET', `/api/v1/audit-events?resourceId=${i.id}&action=evaluation.reviewed`, { key: org.key });
    assert.deepEqual(trail.body.data, []);
  });
});

describe('consent: withdrawn mid-interview, and what it blocks', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });
  const get = async (id: string) => (await call('GET', `/api/v1/interviews/${id}`, { key: org.key })).body.data;

  it('before a start: no consent on the interview, no answers, evaluation pending, a decision 409', async () => {
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    const shown = await get(i.id);
    assert.equal(shown.consent, null);
    assert.equal(shown.declinedAt, null);
    assert.equal((await submitInvite(tokenOf(i.inviteUrl), ['a', 'b'])).status, 409);
    const evaluation = await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key });
    assert.equal(evaluation.status, 200, evaluation.text);
    assert.equal(evaluation.body.data.status, 'pending');
    assert.deepEqual(evaluation.body.data.answers, []);
    assert.equal(evaluation.body.data.overallScore, null);
    assert.equal(evaluation.body.data.review, null);
  });

  it('a started interview the recruiter cancels (the candidate asked to stop) takes no answers and has no evaluation', async () => {
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    const token = tokenOf(i.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    assert.ok((await get(i.id)).consent?.givenAt);
    const cancel = await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key, body: { reason: 'The candidate withdrew consent' } });
    assert.equal(cancel.status, 200, cancel.text);
    assert.equal(cancel.body.data.status, 'cancelled');
    const submit = await submitInvite(token, ['late', 'answers']);
    assert.ok(submit.status >= 400 && submit.status < 500, `answers after the cancel are refused: ${submit.status}`);
    assert.equal((await get(i.id)).status, 'cancelled');
    assertError(await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key }), 409, 'evaluation_unavailable');
    assertError(await call('POST', reviewPath(i.id), { key: org.key, body: { decision: 'advance' } }), 409, 'evaluation_unavailable');
  });

  it('declining a cancelled interview changes nothing', async () => {
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    assert.equal((await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key })).status, 200);
    const res = await declineInvite(tokenOf(i.inviteUrl));
    assert.ok(res.status < 500, `${res.status}`);
    const shown = await get(i.id);
    assert.equal(shown.status, 'cancelled');
    assert.equal(shown.declinedAt, null);
  });
});

describe('erasure: the edges', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
  });

  it('an unknown id is 404 (a malformed one 422, as on every route); a key without admin is 403', async () => {
    assertError(await call('DELETE', '/api/v1/candidates/cand_00000000000000000000000000', { key: org.key }), 404, 'not_found');
    assertValidation(await call('DELETE', '/api/v1/candidates/not-an-id', { key: org.key }), 'id');
    const c = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('nokey'), name: 'Kept Person' } });
    const writer = await newKey(org.organization.id, ['read', 'write']);
    assertError(await call('DELETE', `/api/v1/candidates/${c.body.data.id}`, { key: writer.key }), 403, 'insufficient_scope');
    assert.equal((await call('GET', `/api/v1/candidates/${c.body.data.id}`, { key: org.key })).status, 200, 'still there');
  });

  it('after the DELETE: every route of the person is 404, the e-mail is free again, and no list or sync walk shows them', async () => {
    const email = uniqueEmail('gone');
    const positionId = (await newPosition(org.key)).id;
    const i = await schedule(org.key, positionId, { candidate: { email, name: 'Gone Person' } });
    const id = i.candidate.id;
    const erased = await call('DELETE', `/api/v1/candidates/${id}`, { key: org.key });
    assert.equal(erased.status, 202, erased.text);
    const task = erased.body.data;

    assertError(await call('GET', `/api/v1/candidates/${id}`, { key: org.key }), 404, 'not_found');
    assertError(await call('PATCH', `/api/v1/candidates/${id}`, { key: org.key, body: { name: 'Back Again' } }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/interviews/${i.id}`, { key: org.key }), 404, 'not_found');
    assertError(await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key }), 404, 'not_found');
    const byCandidate = await call('GET', `/api/v1/interviews?candidateId=${id}`, { key: org.key });
    assert.equal(byCandidate.status, 200, byCandidate.text);
    assert.deepEqual(byCandidate.body.data, []);
    const byEmail = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key: org.key });
    assert.deepEqual(byEmail.body.data, []);
    for (const list of ['candidates', 'interviews']) {
      const walk = await call('GET', `/api/v1/${list}?updatedAfter=${EPOCH}&limit=100`, { key: org.key });
      assert.equal(walk.status, 200, walk.text);
      const ids = walk.body.data.map((x: { id: string }) => x.id);
      assert.ok(!ids.includes(id) && !ids.includes(i.id), `${list}: the erased person is not in the sync walk`);
    }
    const second = await call('DELETE', `/api/v1/candidates/${id}`, { key: org.key });
    assert.equal(second.status, 202, second.text);
    assert.equal(second.body.data.id, task.id, 'erasing twice answers with the same task');

    // The e-mail belongs to no one now: a new candidate with it is a new person, not a 409 to the erased id.
    const again = await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'Someone New' } });
    assert.equal(again.status, 201, again.text);
    assert.notEqual(again.body.data.id, id);
    const rescheduled = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId, candidate: { email } } });
    assert.equal(rescheduled.status, 201, rescheduled.text);
    assert.equal(rescheduled.body.data.candidate.id, again.body.data.id);

    const done = await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data, (t) => t.status === 'succeeded' || t.status === 'failed');
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.kind, 'candidate_erasure');
    assert.equal(done.result.candidateId, id);
    const tombstone = await eventually(
      async () => ((await call('GET', '/api/v1/events?type=candidate.erased&limit=100', { key: org.key })).body.data as { data: Record<string, unknown> }[]).filter((e) => e.data.id === id),
      (found) => found.length > 0,
    );
    assert.equal(tombstone.length, 1);
    assert.deepEqual(tombstone[0]!.data, { id });
    const trail = await call('GET', `/api/v1/audit-events?resourceId=${id}&action=candidate.erased`, { key: org.key });
    assert.equal(trail.body.data.length, 1, 'the DELETE is audited once, though it was sent twice');
    assert.deepEqual(trail.body.data[0].actor, { type: 'api_key', id: org.keyId, name: 'test' });
  });
});

describe('GET /api/v1/audit-events: what an outside client sends', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    for (let n = 0; n < 3; n++) await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('aud'), name: 'Audit Probe' } });
  });

  it('each event has exactly the documented fields', async () => {
    const res = await call('GET', '/api/v1/audit-events?limit=1', { key: org.key });
    assert.equal(res.status, 200, res.text);
    const [event] = res.body.data;
    assert.deepEqual(Object.keys(event).sort(), ['action', 'actor', 'createdAt', 'id', 'ip', 'requestId', 'resource']);
    assert.deepEqual(Object.keys(event.actor).sort(), ['id', 'name', 'type']);
    assert.deepEqual(Object.keys(event.resource).sort(), ['id', 'type']);
    assert.match(event.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it('bad filter values are 422 with the parameter named, never a 500', async () => {
    for (const [query, param] of [
      ['createdAfter=yesterday', 'createdAfter'],
      ['createdBefore=2026-13-40T00:00:00Z', 'createdBefore'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1e1', 'limit'],
      ['limit=-1', 'limit'],
      [`actorId=${'k'.repeat(101)}`, 'actorId'],
      ['action=%00', 'action'],
      ['resourceId=%ff', 'resourceId'],
    ] as const) {
      assertValidation(await call('GET', `/api/v1/audit-events?${query}`, { key: org.key }), param);
    }
  });

  it('a filter that matches nothing is an empty page: an unknown action, actor or resource', async () => {
    for (const query of ['action=candidate.exploded', 'actorId=key_nobody', 'resourceId=cand_00000000000000000000000000']) {
      const res = await call('GET', `/api/v1/audit-events?${query}`, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, []);
      assert.equal(res.headers.get('link'), null);
    }
  });

  it('a tampered, truncated or foreign cursor is 422', async () => {
    const first = await call('GET', '/api/v1/audit-events?limit=1', { key: org.key });
    const cursor = cursorOf(first);
    assertValidation(await call('GET', `/api/v1/audit-events?limit=1&cursor=${encodeURIComponent(tamper(cursor))}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', `/api/v1/audit-events?limit=1&cursor=${encodeURIComponent(cursor.slice(0, -4))}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', '/api/v1/audit-events?limit=1&cursor=not-a-cursor', { key: org.key }), 'cursor');
    const other = await newOrganizationWithKey(['admin']);
    assertValidation(await call('GET', `/api/v1/audit-events?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: other.key }), 'cursor');
    const candidates = await call('GET', `/api/v1/candidates?limit=1&cursor=${encodeURIComponent(cursor)}`, { key: org.key });
    assertValidation(candidates, 'cursor');
  });
});

describe('sync: what an outside client sends', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write'], 100_000);
    await newPosition(org.key);
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('sync'), name: 'Sync Probe' } });
  });

  it('a watermark in the future is an empty page with no next link, on each list', async () => {
    for (const list of ['candidates', 'positions', 'interviews']) {
      const res = await call('GET', `/api/v1/${list}?updatedAfter=2999-01-01T00:00:00Z`, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.data, []);
      assert.equal(nextPath(res), null);
    }
  });

  it('bad watermarks are 422 naming updatedAfter: no offset, not a date, a number', async () => {
    for (const value of ['yesterday', '2026-01-01', '1700000000', '2026-02-30T00:00:00Z', '']) {
      const res = await call('GET', `/api/v1/positions?updatedAfter=${value}`, { key: org.key });
      if (value === '') {
        assert.equal(res.status, 200, 'an empty parameter counts as absent (docs/api.md, Lists)');
        continue;
      }
      assertValidation(res, 'updatedAfter');
    }
  });

  it('a tampered cursor, or one from the newest-first list, is 422 on the walk', async () => {
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('sync'), name: 'Sync Probe Two' } });
    const walk = await eventually(() => call('GET', `/api/v1/candidates?updatedAfter=${EPOCH}&limit=1`, { key: org.key }), (r) => nextPath(r) !== null);
    const cursor = cursorOf(walk);
    assertValidation(await call('GET', `/api/v1/candidates?updatedAfter=${EPOCH}&limit=1&cursor=${encodeURIComponent(tamper(cursor))}`, { key: org.key }), 'cursor');
    assertValidation(await call('GET', `/api/v1/positions?updatedAfter=${EPOCH}&limit=1&cursor=${encodeURIComponent(cursor)}`, { key: org.key }), 'cursor');
    const plain = await call('GET', '/api/v1/candidates?limit=1', { key: org.key });
    assertValidation(await call('GET', `/api/v1/candidates?updatedAfter=${EPOCH}&limit=1&cursor=${encodeURIComponent(cursorOf(plain))}`, { key: org.key }), 'cursor');
  });

  it('updatedAt carries microseconds a client can feed back as updatedAfter', async () => {
    const walk = await eventually(() => call('GET', `/api/v1/candidates?updatedAfter=${EPOCH}&limit=100`, { key: org.key }), (r) => r.body.data?.length >= 1);
    const last = walk.body.data.at(-1) as { id: string; updatedAt: string };
    assert.match(last.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/, 'microseconds in updatedAt');
    const after = await call('GET', `/api/v1/candidates?updatedAfter=${encodeURIComponent(last.updatedAt)}&limit=100`, { key: org.key });
    assert.equal(after.status, 200, after.text);
    assert.ok(!after.body.data.some((c: { id: string }) => c.id === last.id), 'updatedAfter is exclusive at microsecond precision');
  });
});

describe('time filters at the edges of RFC 3339 (offsets up to ±23:59, the year 0000)', () => {
  let org: Org;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('edge'), name: 'Edge Time' } });
  });

  it('createdAfter / createdBefore with any valid offset or year answer 200, never a 500', async () => {
    const instants = ['2026-01-01T00:00:00+22:53', '2026-01-01T00:00:00-23:59', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z', '2026-01-01T00:00:00.123456789Z'];
    for (const list of ['audit-events', 'candidates', 'interviews', 'events']) {
      for (const instant of instants) {
        for (const filter of ['createdAfter', 'createdBefore']) {
          const res = await call('GET', `/api/v1/${list}?${filter}=${encodeURIComponent(instant)}`, { key: org.key });
          assert.equal(res.status, 200, `${list}?${filter}=${instant}: ${res.text}`);
        }
      }
    }
  });
});

describe('erasure while the candidate is on the invite page', () => {
  it('the start and submit forms of an erased person answer 404 pages, and store nothing', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    const token = tokenOf(i.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    assert.equal((await call('DELETE', `/api/v1/candidates/${i.candidate.id}`, { key: org.key })).status, 202);
    const submit = await submitInvite(token, ['an answer after the erasure', 'another']);
    assert.equal(submit.status, 404, submit.text.slice(0, 200));
    assert.doesNotMatch(submit.text, /an answer after the erasure/);
    assert.equal((await startInvite(token)).status, 404);
    assert.equal((await declineInvite(token)).status, 404);
  });
});

describe('the trail shows what an auditor looks for', () => {
  it('api_key.revoked and webhook.secret_rotated, each once with its resource; an idempotent replay records nothing more', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const doomed = await newKey(org.organization.id, ['read']);
    await testIdentity().forOrganization(org.organization.id).apiKeys.revoke.mutate({ id: doomed.keyId });
    const revoked = await call('GET', `/api/v1/audit-events?action=api_key.revoked&resourceId=${doomed.keyId}`, { key: org.key });
    assert.equal(revoked.status, 200, revoked.text);
    assert.equal(revoked.body.data.length, 1, revoked.text);
    assert.deepEqual(revoked.body.data[0].resource, { type: 'api_key', id: doomed.keyId });

    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['*'] } });
      assert.equal(hook.status, 201, hook.text);
      const rotated = await call('POST', `/api/v1/webhooks/${hook.body.data.id}/rotate-secret`, { key: org.key, body: {} });
      assert.equal(rotated.status, 200, rotated.text);
      const trail = await call('GET', `/api/v1/audit-events?resourceId=${hook.body.data.id}`, { key: org.key });
      assert.deepEqual(trail.body.data.map((e: { action: string }) => e.action), ['webhook.secret_rotated', 'webhook.created']);
      assert.equal(trail.body.data[0].requestId, rotated.headers.get('x-request-id'));
    } finally {
      await receiver.close();
    }

    const body = { email: uniqueEmail('idem'), name: 'Once Only' };
    const headers = { 'idempotency-key': `regcheck-${Date.now()}` };
    const first = await call('POST', '/api/v1/candidates', { key: org.key, body, headers });
    const replay = await call('POST', '/api/v1/candidates', { key: org.key, body, headers });
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    const created = await call('GET', `/api/v1/audit-events?resourceId=${first.body.data.id}`, { key: org.key });
    assert.deepEqual(created.body.data.map((e: { action: string }) => e.action), ['candidate.created']);
  });

  it('createdAfter and createdBefore are exclusive, like every list; the last page has no next link', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const c = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('excl'), name: 'Exclusive' } });
    const [event] = (await call('GET', `/api/v1/audit-events?resourceId=${c.body.data.id}`, { key: org.key })).body.data;
    for (const filter of ['createdAfter', 'createdBefore']) {
      const res = await call('GET', `/api/v1/audit-events?resourceId=${c.body.data.id}&${filter}=${encodeURIComponent(event.createdAt)}`, { key: org.key });
      assert.deepEqual(res.body.data, [], filter);
    }
    const all = await call('GET', '/api/v1/audit-events?limit=100', { key: org.key });
    assert.ok(all.body.data.length < 100);
    assert.equal(nextPath(all), null);
  });
});

describe('what a busy client does at once', () => {
  it('parallel DELETEs of one candidate: one task, one audit event, one candidate.erased', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const c = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('race'), name: 'Raced Erasure' } });
    const id = c.body.data.id as string;
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('DELETE', `/api/v1/candidates/${id}`, { key: org.key })));
    for (const res of answers) assert.equal(res.status, 202, res.text);
    const tasks = new Set(answers.map((res) => res.body.data.id));
    assert.equal(tasks.size, 1, `one task: ${[...tasks].join(', ')}`);
    const [taskId] = tasks;
    const done = await eventually(async () => (await call('GET', `/api/v1/tasks/${taskId}`, { key: org.key })).body.data, (t) => t.status === 'succeeded' || t.status === 'failed');
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const trail = await call('GET', `/api/v1/audit-events?resourceId=${id}&action=candidate.erased`, { key: org.key });
    assert.equal(trail.body.data.length, 1, trail.text);
    const erased = await eventually(
      async () => ((await call('GET', '/api/v1/events?type=candidate.erased&limit=100', { key: org.key })).body.data as { data: { id: string } }[]).filter((e) => e.data.id === id),
      (found) => found.length > 0,
    );
    assert.equal(erased.length, 1);
  });

  it('the console\'s review of an erased person\'s interview is NOT_FOUND in tRPC\'s shape', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const email = `regcheck-${Date.now()}@example.com`;
    await testIdentity().system.users.create.mutate({ organizationId: org.organization.id, email, name: 'Console Reviewer', password: 'a long password' });
    const login = await call('POST', '/auth/login', { body: { email, password: 'a long password' } });
    assert.equal(login.status, 200, login.text);
    const user = login.body.data.user as { id: string; name: string };
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const i = await completed(org);
    assert.equal((await call('DELETE', `/api/v1/candidates/${i.candidate.id}`, { key: org.key })).status, 202);
    const res = await call('POST', '/trpc/recruiting/evaluations.review', {
      headers: { cookie },
      body: { interviewId: i.id, review: { decision: 'advance' }, reviewer: { type: 'user', id: user.id, name: user.name } },
    });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.data.appCode, 'not_found');
  });

  it('the invite page\'s actions are the invite actor\'s, and interview.started carries the consent', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    assert.equal((await startInvite(tokenOf(i.inviteUrl))).status, 303);
    const trail = await call('GET', `/api/v1/audit-events?actorId=invite&resourceId=${i.id}`, { key: org.key });
    assert.equal(trail.status, 200, trail.text);
    assert.deepEqual(trail.body.data.map((e: { action: string; actor: { type: string } }) => [e.action, e.actor.type]), [['interview.started', 'system']]);
    const started = await eventually(
      async () => ((await call('GET', '/api/v1/events?type=interview.started&limit=100', { key: org.key })).body.data as { data: { id: string; consent: unknown } }[]).find((e) => e.data.id === i.id),
      (e) => e !== undefined,
    );
    const shown = (await call('GET', `/api/v1/interviews/${i.id}`, { key: org.key })).body.data;
    assert.deepEqual(started!.data.consent, shown.consent);
    assert.ok(shown.consent.noticeVersion);
  });
});

describe('filters combined with the walk, and names that outlive their keys', () => {
  it('a closed position reaches the walk filtered by status=closed; an unknown event type is 422', async () => {
    const org = await newOrganizationWithKey(['read', 'write'], 100_000);
    const p = await newPosition(org.key);
    const closed = await call('PATCH', `/api/v1/positions/${p.id}`, { key: org.key, body: { status: 'closed' } });
    assert.equal(closed.status, 200, closed.text);
    const walk = await eventually(
      () => call('GET', `/api/v1/positions?updatedAfter=${EPOCH}&status=closed`, { key: org.key }),
      (r) => r.body.data?.length === 1,
      30_000,
    );
    assert.equal(walk.body.data[0].id, p.id);
    assert.equal(walk.body.data[0].updatedAt, closed.body.data.updatedAt, 'the walk shows the version the PATCH answered');
    const open = await call('GET', `/api/v1/positions?updatedAfter=${EPOCH}&status=open`, { key: org.key });
    assert.deepEqual(open.body.data, []);
    assertValidation(await call('GET', '/api/v1/events?type=candidate.exploded', { key: org.key }), 'type');
  });

  it('the trail still names a key after it is revoked', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const writer = await newKey(org.organization.id, ['write']);
    const c = await call('POST', '/api/v1/candidates', { key: writer.key, body: { email: uniqueEmail('revoked'), name: 'By A Revoked Key' } });
    assert.equal(c.status, 201, c.text);
    await testIdentity().forOrganization(org.organization.id).apiKeys.revoke.mutate({ id: writer.keyId });
    const trail = await call('GET', `/api/v1/audit-events?resourceId=${c.body.data.id}`, { key: org.key });
    assert.deepEqual(trail.body.data[0].actor, { type: 'api_key', id: writer.keyId, name: 'test' });
  });
});
