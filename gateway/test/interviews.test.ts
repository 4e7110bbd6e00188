import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { newPosition, schedule, startInvite, submitInvite, tokenOf, uniqueEmail } from './interview-helpers.js';
import { INVITE_TEXTS } from '../src/invite/invite-texts.js';

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

const eventsFor = async (id: string) =>
  (await db.query<{ type: string }>(`select type from recruiting.outbox where payload->'data'->>'id' = $1 order by created_at, id`, [id])).rows.map((r) => r.type);

describe('POST /api/v1/interviews', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let position: { id: string; title: string };
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    position = await newPosition(org.key);
  });

  it('schedules: 201 with inviteUrl, status scheduled, a new candidate created, defaults applied', async () => {
    const email = uniqueEmail();
    const res = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email, name: 'Grace Hopper' } } });
    assert.equal(res.status, 201, res.text);
    const data = res.body.data;
    assert.match(data.id, /^int_/);
    assert.equal(data.status, 'scheduled');
    assert.equal(data.title, 'Backend Engineer interview');
    assert.equal(data.duration, 30);
    assert.equal(data.candidate.email, email);
    assert.equal(res.headers.get('location'), `/api/v1/interviews/${data.id}`);
    const days = (Date.parse(data.expiresAt) - Date.parse(data.createdAt)) / 86_400_000;
    assert.equal(Math.round(days), 14);
    // Unguessable token: at least 128 bits, and only its hash is stored.
    const token = tokenOf(data.inviteUrl);
    assert.ok(Buffer.from(token, 'base64url').length >= 16);
    const stored = await db.query(`select invite_token_hash from recruiting.interviews where id = $1`, [data.id]);
    assert.notEqual(stored.rows[0].invite_token_hash, token);
    assert.ok(!JSON.stringify(stored.rows[0]).includes(token));
    const candidates = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key: org.key });
    assert.equal(candidates.body.data[0].id, data.candidate.id);
    assert.deepEqual(await eventsFor(data.id), ['interview.scheduled']);
  });

  it('the default title is cut to 200 characters as the schemas count them: never half an emoji', async () => {
    const long = await newPosition(org.key, { title: `a${'\u{1F600}'.repeat(199)}` });
    const res = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: long.id, candidate: { email: uniqueEmail(), name: 'Grace Hopper' } } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.title, `a${'\u{1F600}'.repeat(199)}`);
  });

  it('reuses the candidate with that e-mail (no name needed), and GET shows the same inviteUrl', async () => {
    const first = await schedule(org.key, position.id);
    const again = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, title: 'Second round', duration: 45, expiresInDays: 3, candidate: { email: first.candidate.email.toUpperCase() } } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.data.candidate.id, first.candidate.id);
    assert.equal(again.body.data.title, 'Second round');
    assert.equal(again.body.data.duration, 45);
    const got = await call('GET', `/api/v1/interviews/${first.id}`, { key: org.key });
    assert.equal(got.body.data.inviteUrl, first.inviteUrl);
  });

  it('422 when the candidate is new and has no name', async () => {
    const res = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email: uniqueEmail() } } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.details[0].path, 'candidate.name');
  });

  it('422 for every invalid field', async () => {
    const good = { positionId: position.id, candidate: { email: uniqueEmail(), name: 'X' } };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, positionId: undefined }, 'positionId'],
      [{ ...good, positionId: 'cand_0000000000000000000000' }, 'positionId'],
      [{ ...good, candidate: undefined }, 'candidate'],
      [{ ...good, candidate: { email: 'nope', name: 'X' } }, 'candidate.email'],
      [{ ...good, duration: 4 }, 'duration'],
      [{ ...good, duration: 181 }, 'duration'],
      [{ ...good, duration: 30.5 }, 'duration'],
      [{ ...good, expiresInDays: 0 }, 'expiresInDays'],
      [{ ...good, expiresInDays: 91 }, 'expiresInDays'],
      [{ ...good, title: 'x'.repeat(201) }, 'title'],
      [{ ...good, colour: 'blue' }, 'colour'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/api/v1/interviews', { key: org.key, body });
      assert.equal(res.status, 422, `${path}: ${res.text}`);
      assert.ok((res.body.error.details as { path: string }[]).some((d) => d.path === path), `${path}: ${JSON.stringify(res.body.error.details)}`);
    }
  });

  it('404 for an unknown position or another organization\'s position; 409 position_closed for a closed one', async () => {
    const other = await newOrganizationWithKey(['write']);
    const foreign = await newPosition(other.key);
    for (const positionId of ['pos_0000000000000000000000', foreign.id]) {
      const res = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId, candidate: { email: uniqueEmail(), name: 'X' } } });
      assert.equal(res.status, 404, res.text);
      assert.equal(res.body.error.code, 'not_found');
    }
    const closed = await newPosition(org.key, { status: 'closed' });
    const email = uniqueEmail();
    const res = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: closed.id, candidate: { email, name: 'X' } } });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'position_closed');
    assert.equal((await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key: org.key })).body.data.length, 0, 'nothing created');
  });
});

describe('GET /api/v1/interviews and /interviews/{id}', () => {
  it('pages over 3 pages with filters, following Link rel="next"', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const a = await newPosition(org.key);
    const b = await newPosition(org.key);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await schedule(org.key, a.id)).id);
    await schedule(org.key, b.id);
    const seen: string[] = [];
    let path: string | null = `/api/v1/interviews?positionId=${a.id}&status=scheduled&limit=3`;
    let pages = 0;
    while (path) {
      const res: Awaited<ReturnType<typeof call<any>>> = await call('GET', path, { key: org.key });
      assert.equal(res.status, 200, res.text);
      pages++;
      seen.push(...res.body.data.map((i: { id: string }) => i.id));
      const link = res.headers.get('link');
      path = link ? new URL(/<([^>]+)>; rel="next"/.exec(link)![1]!).pathname + new URL(/<([^>]+)>/.exec(link)![1]!).search : null;
    }
    assert.equal(pages, 3);
    assert.deepEqual(seen, [...made].reverse(), 'newest first, each once');
  });

  it('422 for a tampered cursor, a cursor with other filters, unknown parameters and bad limits', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const p = await newPosition(org.key);
    await schedule(org.key, p.id);
    await schedule(org.key, p.id);
    const first = await call('GET', '/api/v1/interviews?limit=1', { key: org.key });
    const cursor = new URL(/<([^>]+)>/.exec(first.headers.get('link')!)![1]!).searchParams.get('cursor')!;
    const tampered = cursor.slice(0, 5) + (cursor[5] === 'A' ? 'B' : 'A') + cursor.slice(6);
    for (const q of [`cursor=${tampered}&limit=1`, `cursor=${cursor}&limit=1&status=completed`, 'sort=asc', 'limit=0', 'limit=101', 'status=done', 'createdAfter=yesterday']) {
      const res = await call('GET', `/api/v1/interviews?${q}`, { key: org.key });
      assert.equal(res.status, 422, `${q}: ${res.text}`);
      assert.equal(res.body.error.code, 'validation_failed');
    }
    const ok = await call('GET', `/api/v1/interviews?cursor=${cursor}&limit=1`, { key: org.key });
    assert.equal(ok.status, 200);
  });

  it('another organization\'s interview is 404 on every interview route', async () => {
    const a = await newOrganizationWithKey(['read', 'write']);
    const b = await newOrganizationWithKey(['read', 'write']);
    const interview = await schedule(a.key, (await newPosition(a.key)).id);
    for (const [method, path] of [['GET', `/api/v1/interviews/${interview.id}`], ['GET', `/api/v1/interviews/${interview.id}/evaluation`], ['DELETE', `/api/v1/interviews/${interview.id}`]] as const) {
      const res = await call(method, path, { key: b.key });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error.code, 'not_found');
    }
    const list = await call('GET', `/api/v1/interviews?candidateId=${interview.candidate.id}`, { key: b.key });
    assert.deepEqual(list.body.data, []);
  });
});

describe('POST /api/v1/interviews: language and accommodations (PRODUCT.md §12)', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
  });
  const create = (extra: Record<string, unknown>) => call('POST', '/api/v1/interviews', { key: org.key, body: { positionId, candidate: { email: uniqueEmail(), name: 'Ada' }, ...extra } });

  it('defaults to English and no extra time; `de` and an extra-time percentage are kept and returned', async () => {
    const plain = await create({});
    assert.equal(plain.status, 201, plain.text);
    assert.equal(plain.body.data.language, 'en');
    assert.deepEqual(plain.body.data.accommodations, { extraTimePercent: 0 });
    const german = await create({ language: 'de', accommodations: { extraTimePercent: 100 } });
    assert.equal(german.status, 201, german.text);
    assert.equal(german.body.data.language, 'de');
    assert.deepEqual(german.body.data.accommodations, { extraTimePercent: 100 });
    const read = await call('GET', `/api/v1/interviews/${german.body.data.id}`, { key: org.key });
    assert.deepEqual([read.body.data.language, read.body.data.accommodations], ['de', { extraTimePercent: 100 }]);
  });

  it('422 validation_failed for an unsupported language and an extra time outside 0–100', async () => {
    for (const [body, path] of [
      [{ language: 'xx' }, 'language'],
      [{ language: 'fr' }, 'language'],
      [{ language: '' }, 'language'],
      [{ accommodations: { extraTimePercent: 101 } }, 'accommodations.extraTimePercent'],
      [{ accommodations: { extraTimePercent: -1 } }, 'accommodations.extraTimePercent'],
      [{ accommodations: { extraTimePercent: 10, other: true } }, 'accommodations'],
    ] as const) {
      const res = await create(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error.code, 'validation_failed');
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path.startsWith(path)), res.text);
    }
  });

  it('the OpenAPI description lists the supported languages', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body;
    const schema = JSON.stringify(doc.paths['/interviews'].post.requestBody.content['application/json'].schema.properties.language);
    assert.match(schema, /"enum":\["en","de"\]/);
    assert.match(schema, /`en` \(English/);
    assert.match(schema, /`de` \(German\)/);
  });
});

describe('interview state machine (PRODUCT.md §7)', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key)).id;
  });
  const get = async (id: string) => (await call('GET', `/api/v1/interviews/${id}`, { key: org.key })).body.data;

  it('scheduled → in_progress → completed, with startedAt, completedAt and one event each', async () => {
    const i = await schedule(org.key, positionId);
    const token = tokenOf(i.inviteUrl);
    assert.equal((await submitInvite(token, ['a', 'b'])).status, 409, 'cannot submit before starting');
    assert.equal((await startInvite(token)).status, 303);
    assert.equal((await startInvite(token)).status, 303, 'starting twice is harmless');
    const started = await get(i.id);
    assert.equal(started.status, 'in_progress');
    assert.ok(started.startedAt);
    assert.equal((await submitInvite(token, ['only one'])).status, 422, 'every question needs an answer');
    assert.equal((await submitInvite(token, ['A race.'])).status, 303, 'the rest of the answers, from the current question on');
    const done = await get(i.id);
    assert.equal(done.status, 'completed');
    assert.ok(done.completedAt);
    assert.deepEqual(await eventsFor(i.id), ['interview.scheduled', 'interview.started', 'interview.completed']);
    assert.equal((await startInvite(token)).status, 303, 'the page shows the completed state');
    assert.equal((await get(i.id)).status, 'completed');
  });

  it('DELETE cancels scheduled and in-progress interviews, keeps the record and the reason, and is idempotent', async () => {
    const scheduled = await schedule(org.key, positionId);
    const res = await call('DELETE', `/api/v1/interviews/${scheduled.id}?reason=Position%20filled`, { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.status, 'cancelled');
    assert.equal(res.body.data.cancellationReason, 'Position filled');
    assert.ok(res.body.data.cancelledAt);
    const again = await call('DELETE', `/api/v1/interviews/${scheduled.id}?reason=other`, { key: org.key });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, res.body.data, 'unchanged on repeat');
    assert.deepEqual(await eventsFor(scheduled.id), ['interview.scheduled', 'interview.cancelled']);

    const running = await schedule(org.key, positionId);
    await startInvite(tokenOf(running.inviteUrl));
    const byBody = await call('DELETE', `/api/v1/interviews/${running.id}`, { key: org.key, body: { reason: 'Candidate withdrew' } });
    assert.equal(byBody.status, 200, byBody.text);
    assert.equal(byBody.body.data.cancellationReason, 'Candidate withdrew');
    assert.equal((await startInvite(tokenOf(running.inviteUrl))).status, 303);
    assert.equal((await get(running.id)).status, 'cancelled', 'a cancelled invite cannot be started');
    assert.equal((await submitInvite(tokenOf(running.inviteUrl), ['a', 'b'])).status, 409);
  });

  it('409 interview_not_cancellable for completed and expired interviews', async () => {
    const completed = await schedule(org.key, positionId);
    await startInvite(tokenOf(completed.inviteUrl));
    await submitInvite(tokenOf(completed.inviteUrl), ['x', 'y']);
    const expired = await schedule(org.key, positionId);
    await db.query(`update recruiting.interviews set expires_at = now() - interval '1 second' where id = $1`, [expired.id]);
    for (const id of [completed.id, expired.id]) {
      const res = await call('DELETE', `/api/v1/interviews/${id}`, { key: org.key });
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.error.code, 'interview_not_cancellable');
    }
    assert.equal((await get(expired.id)).status, 'expired');
  });

  it('an interview past expiresAt is expired: shown at once, written by the sweep with its event, and cannot start', async () => {
    const i = await schedule(org.key, positionId);
    const started = await schedule(org.key, positionId);
    await startInvite(tokenOf(started.inviteUrl));
    // A started interview can be finished until expiresAt plus its time budget (PRODUCT.md §12 "Time").
    await db.query(`update recruiting.interviews set expires_at = now() - interval '1 second' where id = any($1)`, [[i.id, started.id]]);
    assert.equal((await get(i.id)).status, 'expired');
    assert.equal((await get(started.id)).status, 'in_progress', 'within its budget past expiresAt, a started interview goes on');
    await db.query(`update recruiting.interviews set expires_at = now() - make_interval(mins => duration_minutes) - interval '1 second' where id = $1`, [started.id]);
    assert.equal((await get(started.id)).status, 'expired', 'past expiresAt plus its budget it is expired');
    // The expired page says until when the invite could be used: for a started one, the deadline it was given.
    const { rows: [ends] } = await db.query(
      `select id, expires_at, expires_at + make_interval(mins => duration_minutes) as finish_by from recruiting.interviews where id = $1`, [started.id]);
    const expiredPage = async (inviteUrl: string) => (await fetch(inviteUrl)).text();
    const en = INVITE_TEXTS.en;
    assert.ok((await expiredPage(started.inviteUrl)).includes(en.expiredBody(ends.finish_by.toISOString())), 'a started interview was valid until expiresAt plus its budget');
    assert.ok((await expiredPage(i.inviteUrl)).includes(en.expiredBody((await get(i.id)).expiresAt)), 'one never started, until expiresAt');
    // The status filter means the status the client sees, before the sweep as after it.
    const listed = async (status: string) =>
      ((await call('GET', `/api/v1/interviews?status=${status}&positionId=${positionId}&limit=100`, { key: org.key })).body.data as { id: string }[]).map((x) => x.id);
    assert.ok((await listed('expired')).includes(i.id) && (await listed('expired')).includes(started.id), 'overdue interviews are listed as expired');
    assert.ok(!(await listed('scheduled')).includes(i.id), 'an overdue interview is no longer listed as scheduled');
    assert.ok(!(await listed('in_progress')).includes(started.id), 'nor as in progress');
    await startInvite(tokenOf(i.inviteUrl));
    assert.equal((await get(i.id)).status, 'expired');
    const swept = await eventually(
      async () => (await db.query(`select status from recruiting.interviews where id = any($1)`, [[i.id, started.id]])).rows.map((r) => r.status),
      (s) => s.every((x) => x === 'expired'),
      20_000,
    );
    assert.deepEqual(swept, ['expired', 'expired']);
    assert.deepEqual(await eventsFor(i.id), ['interview.scheduled', 'interview.expired']);
    assert.deepEqual(await eventsFor(started.id), ['interview.scheduled', 'interview.started', 'interview.expired']);
  });
});

describe('GET /api/v1/interviews/{id}/evaluation', () => {
  it('pending → processing → completed through the Temporal workflow (offline provider)', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    const evalPath = `/api/v1/interviews/${i.id}/evaluation`;
    const pending = await call('GET', evalPath, { key: org.key });
    assert.equal(pending.status, 200);
    assert.equal(pending.body.data.status, 'pending');
    await startInvite(tokenOf(i.inviteUrl));
    await submitInvite(tokenOf(i.inviteUrl), ['I like distributed systems and your product.', 'A clock-skew bug in a lease.']);
    const final = await eventually(
      async () => (await call('GET', evalPath, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(final.status, 'completed', JSON.stringify(final));
    assert.equal(final.model, 'offline');
    // The offline provider scores only what the answers give evidence for (PRODUCT.md §12): with
    // too little, the evaluation completes without an overall score and says why.
    if (final.overallScore === null) assert.deepEqual([final.recommendation, typeof final.overallScoreReason], [null, 'string']);
    else assert.ok(final.overallScore >= 0 && final.overallScore <= 100 && ['strong_no', 'no', 'mixed', 'yes', 'strong_yes'].includes(final.recommendation));
    assert.equal(final.rubricVersion, 1);
    assert.equal(final.competencyScores.length, 4);
    assert.deepEqual(final.answers.map((a: { question: string }) => a.question), ['Why us?', 'Hardest bug?']);
    assert.ok(final.completedAt);
    const types = await eventsFor(i.id);
    assert.ok(types.includes('interview.completed'));
    const evalEvents = await db.query(`select type from recruiting.outbox where type like 'evaluation.%' and payload->'data'->>'interviewId' = $1`, [i.id]);
    assert.deepEqual(evalEvents.rows.map((r) => r.type), ['evaluation.completed']);
  });

  it('409 evaluation_unavailable for a cancelled interview', async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    const i = await schedule(org.key, (await newPosition(org.key)).id);
    await call('DELETE', `/api/v1/interviews/${i.id}`, { key: org.key });
    const res = await call('GET', `/api/v1/interviews/${i.id}/evaluation`, { key: org.key });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'evaluation_unavailable');
  });
});
