import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import type { FlowInput } from '@hireloop/contracts';
import { assertError, assertValidation, nextPath, unique } from './api-assertions.js';
import { startReceiver } from './webhook-receiver.js';

// PRODUCT.md §7 Hiring flow: flows are made in the console (the recruiting service's tRPC router);
// the API lists and reads them and enrolls candidates. Every test makes its own organization.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write']);

function recruiting(orgId: string) {
  return createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!).forOrganization(orgId);
}

const createFlow = (orgId: string, input: FlowInput) => recruiting(orgId).flows.create.mutate(input);

const email = (label: string) => `${label}-${unique()}@example.com`;

async function createCandidate(key: string, body: Record<string, unknown> = { email: email('cand'), name: 'Casey Candidate' }) {
  const res = await call('POST', '/api/v1/candidates', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, any>;
}

async function createPosition(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/positions', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data as Record<string, any>;
}

const enroll = (key: string, flowId: string, body: unknown) => call('POST', `/api/v1/hiring-flows/${flowId}/candidates`, { key, body });

const SCREEN_FLOW: FlowInput = {
  name: 'Engineering pipeline',
  description: 'Screen, review, offer',
  stages: [
    { name: 'Phone screen', kind: 'screen' },
    { name: 'Team review', kind: 'review' },
    { name: 'Offer', kind: 'offer' },
  ],
};

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('GET /api/v1/hiring-flows', () => {
  it('lists the flows made in the console, newest first, each with its stages in order', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Designer' });
    const created = [];
    created.push(await createFlow(org.organization.id, SCREEN_FLOW));
    await sleep(3);
    created.push(await createFlow(org.organization.id, { name: 'Design', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }, { name: 'Offer', kind: 'offer' }] }));
    await sleep(3);
    created.push(await createFlow(org.organization.id, { name: 'Minimal', stages: [{ name: 'Review', kind: 'review' }] }));
    const res = await call('GET', '/api/v1/hiring-flows', { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(res.body.data, [...created].reverse());
    const screen = res.body.data[2]!;
    assert.match(screen.id, /^flow_[0-9A-Za-z]{10,40}$/);
    assert.equal(screen.name, SCREEN_FLOW.name);
    assert.equal(screen.description, SCREEN_FLOW.description);
    assert.equal(screen.positionId, null);
    assert.match(screen.createdAt, ISO_UTC);
    assert.deepEqual(screen.stages.map((s: any) => [s.name, s.kind, s.position]), [['Phone screen', 'screen', 1], ['Team review', 'review', 2], ['Offer', 'offer', 3]]);
    for (const s of screen.stages) assert.match(s.id, /^stage_[0-9A-Za-z]{10,40}$/);
    assert.equal(res.body.data[1]!.positionId, position.id);
  });

  it('pages with limit=1 over 3 flows following Link rel="next", with no Link on the last page', async () => {
    const org = await newOrg();
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      created.push((await createFlow(org.organization.id, { name: `Flow ${i}`, stages: [{ name: 'Screen', kind: 'screen' }] })).id);
      await sleep(3);
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let path: string | null = '/api/v1/hiring-flows?limit=1';
    while (path) {
      const res: ApiResponse<any> = await call('GET', path, { key: org.key });
      assert.equal(res.status, 200, res.text);
      sizes.push(res.body.data.length);
      seen.push(...res.body.data.map((f: { id: string }) => f.id));
      path = nextPath(res);
      if (path) assert.match(path, /^\/api\/v1\/hiring-flows\?/);
      assert.ok(sizes.length <= 3, 'at most three pages');
    }
    assert.deepEqual(sizes, [1, 1, 1]);
    assert.deepEqual(seen, [...created].reverse());
  });

  it('never lists another organization\'s flows', async () => {
    const a = await newOrg();
    const b = await newOrg();
    await createFlow(a.organization.id, SCREEN_FLOW);
    const res = await call('GET', '/api/v1/hiring-flows', { key: b.key });
    assert.deepEqual(res.body.data, []);
  });

  it('422 for an unknown query parameter, limit 0 and a tampered cursor', async () => {
    const org = await newOrg();
    for (let i = 0; i < 2; i++) await createFlow(org.organization.id, { name: `Flow ${i}`, stages: [{ name: 'Screen', kind: 'screen' }] });
    assertValidation(await call('GET', '/api/v1/hiring-flows?positionId=pos_1', { key: org.key }), 'positionId');
    assertValidation(await call('GET', '/api/v1/hiring-flows?limit=0', { key: org.key }), 'limit');
    // A limit that is not a whole number is told so, not the validator's "expected number, received string".
    for (const limit of ['1.5', '-1', '99999999999999999999']) {
      const res = await call('GET', `/api/v1/hiring-flows?limit=${limit}`, { key: org.key });
      assertValidation(res, 'limit');
      assert.match(JSON.stringify(res.body.error), /must be a whole number from 1 to 100/, limit);
      assert.doesNotMatch(JSON.stringify(res.body.error), /expected number|received string/, limit);
    }
    const next = nextPath(await call('GET', '/api/v1/hiring-flows?limit=1', { key: org.key }));
    assert.ok(next);
    const tampered = next.replace(/cursor=(.)/, (_m, c: string) => `cursor=${c === 'A' ? 'B' : 'A'}`);
    assert.notEqual(tampered, next);
    assertValidation(await call('GET', tampered, { key: org.key }), 'cursor');
  });
});

describe('GET /api/v1/hiring-flows/{id}', () => {
  it('200 with the flow and its ordered stages', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const res = await call('GET', `/api/v1/hiring-flows/${flow.id}`, { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { data: flow });
  });

  it('404 not_found for another organization\'s flow and for an unknown id', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const flow = await createFlow(a.organization.id, SCREEN_FLOW);
    assertError(await call('GET', `/api/v1/hiring-flows/${flow.id}`, { key: b.key }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/hiring-flows/flow_${'0'.repeat(23)}`, { key: a.key }), 404, 'not_found');
  });

  it('422 validation_failed for a malformed id', async () => {
    const org = await newOrg();
    assertValidation(await call('GET', '/api/v1/hiring-flows/not-a-flow', { key: org.key }), 'id');
  });
});

describe('creating a flow in the console (recruiting router)', () => {
  it('refuses an ai_interview stage without a positionId', async () => {
    const org = await newOrg();
    await assert.rejects(
      createFlow(org.organization.id, { name: 'No position', stages: [{ name: 'Screen', kind: 'screen' }, { name: 'AI', kind: 'ai_interview' }] }),
      (err: any) => {
        assert.equal(err?.data?.appCode, 'validation_failed', String(err));
        assert.ok((err.data.appDetails as { path: string }[]).some((d) => d.path === 'positionId'));
        return true;
      },
    );
    const list = await call('GET', '/api/v1/hiring-flows', { key: org.key });
    assert.deepEqual(list.body.data, [], 'nothing created');
  });
});

describe('POST /api/v1/hiring-flows/{id}/candidates', () => {
  const enrollmentCount = async (flowId: string) => Number((await db.query('select count(*)::int as n from recruiting.enrollments where flow_id = $1', [flowId])).rows[0].n);

  it('201 with an enrollment in the first stage for {candidateId}; no interview for a screen stage', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const candidate = await createCandidate(org.key);
    const res = await enroll(org.key, flow.id, { candidateId: candidate.id });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    const e = res.body.data;
    assert.deepEqual(Object.keys(e).sort(), ['candidateId', 'enrolledAt', 'flowId', 'id', 'interviewId', 'movedAt', 'stageId', 'status']);
    assert.match(e.id, /^enr_[0-9A-Za-z]{10,40}$/);
    assert.equal(e.flowId, flow.id);
    assert.equal(e.candidateId, candidate.id);
    assert.equal(e.stageId, flow.stages[0]!.id);
    assert.equal(e.status, 'active');
    assert.equal(e.interviewId, null);
    assert.match(e.enrolledAt, ISO_UTC);
    assert.equal(e.movedAt, e.enrolledAt, 'not moved yet');
    assert.ok(Math.abs(Date.parse(e.enrolledAt) - Date.now()) < 60_000);
  });

  it('records a hiring_flow.candidate_enrolled event with the enrollment', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const candidate = await createCandidate(org.key);
    const e = (await enroll(org.key, flow.id, { candidateId: candidate.id })).body.data;
    const { rows } = await db.query(
      `select payload from recruiting.outbox where organization_id = $1 and type = 'hiring_flow.candidate_enrolled' and payload->'data'->>'id' = $2`,
      [org.organization.id, e.id],
    );
    assert.equal(rows.length, 1);
    assert.match(rows[0].payload.id, /^evt_/);
    assert.deepEqual(rows[0].payload.data, e);
  });

  it('{candidate: {email, name}} creates the candidate when the e-mail is new', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const address = email('new');
    const res = await enroll(org.key, flow.id, { candidate: { email: address, name: 'New Person' } });
    assert.equal(res.status, 201, res.text);
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(address)}`, { key: org.key });
    assert.equal(list.body.data.length, 1);
    assert.equal(list.body.data[0].id, res.body.data.candidateId);
    assert.equal(list.body.data[0].name, 'New Person');
    const events = await db.query(`select 1 from recruiting.outbox where organization_id = $1 and type = 'candidate.created' and payload->'data'->>'id' = $2`, [
      org.organization.id, res.body.data.candidateId,
    ]);
    assert.equal(events.rowCount, 1, 'the new candidate has its candidate.created event');
  });

  it('{candidate: {email, name}} finds the existing candidate by e-mail, case-insensitively, without creating another', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const existing = await createCandidate(org.key, { email: email('known'), name: 'Known Person' });
    const res = await enroll(org.key, flow.id, { candidate: { email: existing.email.toUpperCase(), name: 'Another Name' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.candidateId, existing.id);
    const all = await call('GET', '/api/v1/candidates', { key: org.key });
    assert.equal(all.body.data.length, 1);
    assert.equal(all.body.data[0].name, 'Known Person', 'the existing candidate is unchanged');
  });

  it('409 already_enrolled when the candidate is enrolled twice, by id or by e-mail', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const candidate = await createCandidate(org.key);
    assert.equal((await enroll(org.key, flow.id, { candidateId: candidate.id })).status, 201);
    assertError(await enroll(org.key, flow.id, { candidateId: candidate.id }), 409, 'already_enrolled');
    assertError(await enroll(org.key, flow.id, { candidate: { email: candidate.email, name: candidate.name } }), 409, 'already_enrolled');
    assert.equal(await enrollmentCount(flow.id), 1);
    const other = await createFlow(org.organization.id, { ...SCREEN_FLOW, name: 'Other flow' });
    assert.equal((await enroll(org.key, other.id, { candidateId: candidate.id })).status, 201, 'the same candidate in another flow is fine');
  });

  it('404 not_found for an unknown candidateId and for another organization\'s candidate', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const flow = await createFlow(a.organization.id, SCREEN_FLOW);
    const theirs = await createCandidate(b.key);
    assertError(await enroll(a.key, flow.id, { candidateId: `cand_${'0'.repeat(23)}` }), 404, 'not_found');
    assertError(await enroll(a.key, flow.id, { candidateId: theirs.id }), 404, 'not_found');
    assert.equal(await enrollmentCount(flow.id), 0);
  });

  it('404 not_found for an unknown flow and for another organization\'s flow', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const theirs = await createFlow(b.organization.id, SCREEN_FLOW);
    const candidate = await createCandidate(a.key);
    assertError(await enroll(a.key, `flow_${'0'.repeat(23)}`, { candidateId: candidate.id }), 404, 'not_found');
    assertError(await enroll(a.key, theirs.id, { candidateId: candidate.id }), 404, 'not_found');
    assert.equal(await enrollmentCount(theirs.id), 0);
  });

  it('422 validation_failed when both or neither of candidateId and candidate are given, or either is malformed', async () => {
    const org = await newOrg();
    const flow = await createFlow(org.organization.id, SCREEN_FLOW);
    const candidate = await createCandidate(org.key);
    assertValidation(await enroll(org.key, flow.id, { candidateId: candidate.id, candidate: { email: email('both'), name: 'Both' } }));
    assertValidation(await enroll(org.key, flow.id, {}));
    assertValidation(await enroll(org.key, flow.id, { candidateId: 'nope' }), 'candidateId');
    assertValidation(await enroll(org.key, flow.id, { candidate: { email: 'not-an-email', name: 'X' } }), 'candidate.email');
    assertValidation(await enroll(org.key, flow.id, { candidate: { email: email('noname') } }), 'candidate.name');
    assertValidation(await enroll(org.key, flow.id, { candidateId: candidate.id, stageId: flow.stages[1]!.id }), 'stageId');
    assert.equal(await enrollmentCount(flow.id), 0);
    const list = await call('GET', '/api/v1/candidates', { key: org.key });
    assert.equal(list.body.data.length, 1, 'no candidate created by a refused request');
  });

  it('an ai_interview first stage schedules an interview for the flow\'s position', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Platform Engineer' });
    const flow = await createFlow(org.organization.id, {
      name: 'AI first', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }, { name: 'Review', kind: 'review' }],
    });
    const candidate = await createCandidate(org.key);
    const res = await enroll(org.key, flow.id, { candidateId: candidate.id });
    assert.equal(res.status, 201, res.text);
    const e = res.body.data;
    assert.equal(e.stageId, flow.stages[0]!.id);
    assert.match(e.interviewId, /^int_[0-9A-Za-z]{10,40}$/);
    const interview = await call('GET', `/api/v1/interviews/${e.interviewId}`, { key: org.key });
    assert.equal(interview.status, 200, interview.text);
    assert.equal(interview.body.data.status, 'scheduled');
    assert.equal(interview.body.data.candidate.id, candidate.id);
    assert.equal(interview.body.data.candidate.email, candidate.email);
    assert.equal(interview.body.data.positionId, position.id);
    assert.equal(interview.body.data.title, 'Platform Engineer interview', 'the default title');
    assert.equal(interview.body.data.duration, 30, 'the default duration');
    assert.equal(Date.parse(interview.body.data.expiresAt) - Date.parse(interview.body.data.createdAt), 14 * 86_400_000, 'the default expiry');
    const events = await db.query(`select payload from recruiting.outbox where organization_id = $1 and type = 'hiring_flow.candidate_enrolled' and payload->'data'->>'id' = $2`, [
      org.organization.id, e.id,
    ]);
    assert.equal(events.rows[0]?.payload.data.interviewId, e.interviewId, 'the event carries the interview id');
  });

  it('an ai_interview first stage also works for a candidate created by {candidate: {email, name}}', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'SRE' });
    const flow = await createFlow(org.organization.id, { name: 'AI first', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }] });
    const address = email('ai-new');
    const res = await enroll(org.key, flow.id, { candidate: { email: address, name: 'Ai New' } });
    assert.equal(res.status, 201, res.text);
    const interview = await call('GET', `/api/v1/interviews/${res.body.data.interviewId}`, { key: org.key });
    assert.equal(interview.body.data.candidate.id, res.body.data.candidateId);
    assert.equal(interview.body.data.candidate.email, address);
    assert.equal(interview.body.data.candidate.name, 'Ai New');
  });

  it('is atomic: 409 position_closed for a new candidate leaves no candidate, no enrollment and no event', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Closed role', status: 'closed' });
    assert.equal(position.status, 'closed');
    const flow = await createFlow(org.organization.id, { name: 'Closed AI flow', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }] });
    const address = email('atomic');
    const res = await enroll(org.key, flow.id, { candidate: { email: address, name: 'Atomic Person' } });
    assertError(res, 409, 'position_closed');
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(address)}`, { key: org.key });
    assert.equal(list.status, 200);
    assert.deepEqual(list.body.data, [], 'no candidate with that e-mail');
    assert.equal(await enrollmentCount(flow.id), 0, 'no enrollment');
    const events = await db.query(
      `select type from recruiting.outbox where organization_id = $1 and (payload->'data'->>'email' = $2 or type in ('candidate.created', 'hiring_flow.candidate_enrolled', 'interview.scheduled'))`,
      [org.organization.id, address],
    );
    assert.deepEqual(events.rows, [], 'a failed transaction leaves no event');
    const interviews = await call('GET', '/api/v1/interviews', { key: org.key });
    assert.deepEqual(interviews.body.data, [], 'no interview');
  });

  it('is atomic for an existing candidate too: 409 position_closed and no enrollment', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Closed role', status: 'closed' });
    const flow = await createFlow(org.organization.id, { name: 'Closed AI flow', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }] });
    const candidate = await createCandidate(org.key);
    assertError(await enroll(org.key, flow.id, { candidateId: candidate.id }), 409, 'position_closed');
    assert.equal(await enrollmentCount(flow.id), 0);
    const events = await db.query(`select 1 from recruiting.outbox where organization_id = $1 and type = 'hiring_flow.candidate_enrolled'`, [org.organization.id]);
    assert.equal(events.rowCount, 0);
  });
});

const pipeline = (key: string, flowId: string, query = '') => call('GET', `/api/v1/hiring-flows/${flowId}/candidates${query}`, { key });
const move = (key: string, flowId: string, enrollmentId: string, body: unknown) => call('PATCH', `/api/v1/hiring-flows/${flowId}/candidates/${enrollmentId}`, { key, body });

/** A flow of SCREEN_FLOW's three stages with `n` candidates enrolled, oldest first. */
async function enrolledFlow(org: Org, n: number) {
  const flow = await createFlow(org.organization.id, SCREEN_FLOW);
  const enrollments: Record<string, any>[] = [];
  for (let i = 0; i < n; i++) {
    const res = await enroll(org.key, flow.id, { candidateId: (await createCandidate(org.key)).id });
    assert.equal(res.status, 201, res.text);
    enrollments.push(res.body.data);
    await sleep(3);
  }
  return { flow, enrollments };
}

describe('GET /api/v1/hiring-flows/{id}/candidates', () => {
  it('lists the flow\'s enrollments newest first, as the enrollment resource', async () => {
    const org = await newOrg();
    const { flow, enrollments } = await enrolledFlow(org, 3);
    const other = await createFlow(org.organization.id, { ...SCREEN_FLOW, name: 'Other' });
    assert.equal((await enroll(org.key, other.id, { candidateId: enrollments[0]!.candidateId })).status, 201);
    const res = await pipeline(org.key, flow.id);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(res.body.data, [...enrollments].reverse(), 'exactly the enrollments as POST returned them, not the other flow\'s');
  });

  it('filters by stageId and by status', async () => {
    const org = await newOrg();
    const { flow, enrollments } = await enrolledFlow(org, 3);
    const [a, b, c] = enrollments as [Record<string, any>, Record<string, any>, Record<string, any>];
    assert.equal((await move(org.key, flow.id, a.id, { stageId: flow.stages[1]!.id })).status, 200);
    assert.equal((await move(org.key, flow.id, b.id, { status: 'withdrawn' })).status, 200);
    const ids = async (query: string) => {
      const res = await pipeline(org.key, flow.id, query);
      assert.equal(res.status, 200, res.text);
      return res.body.data.map((e: { id: string }) => e.id);
    };
    assert.deepEqual(await ids(`?stageId=${flow.stages[1]!.id}`), [a.id]);
    assert.deepEqual(await ids(`?stageId=${flow.stages[0]!.id}`), [c.id, b.id]);
    assert.deepEqual(await ids(`?stageId=${flow.stages[0]!.id}&status=active`), [c.id]);
    assert.deepEqual(await ids('?status=withdrawn'), [b.id]);
    assert.deepEqual(await ids('?status=completed'), []);
  });

  it('pages with limit=1 following Link rel="next", keeping the filters, with no Link on the last page', async () => {
    const org = await newOrg();
    const { flow, enrollments } = await enrolledFlow(org, 3);
    const seen: string[] = [];
    let path: string | null = `/api/v1/hiring-flows/${flow.id}/candidates?limit=1&status=active`;
    while (path) {
      const res: ApiResponse<any> = await call('GET', path, { key: org.key });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.data.length, 1);
      seen.push(res.body.data[0].id);
      path = nextPath(res);
      if (path) assert.match(path, new RegExp(`^/api/v1/hiring-flows/${flow.id}/candidates\\?.*status=active`));
      assert.ok(seen.length <= 3, 'at most three pages');
    }
    assert.deepEqual(seen, enrollments.map((e) => e.id).reverse());
  });

  it('404 not_found for an unknown flow and for another organization\'s flow', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const { flow } = await enrolledFlow(a, 1);
    assertError(await pipeline(b.key, flow.id), 404, 'not_found');
    assertError(await pipeline(a.key, `flow_${'0'.repeat(23)}`), 404, 'not_found');
  });

  it('422 for an unknown query parameter, an unknown status, a malformed stageId, and a cursor with other filters or another flow', async () => {
    const org = await newOrg();
    const { flow } = await enrolledFlow(org, 2);
    assertValidation(await pipeline(org.key, flow.id, '?candidateId=cand_1'), 'candidateId');
    assertValidation(await pipeline(org.key, flow.id, '?status=hired'), 'status');
    assertValidation(await pipeline(org.key, flow.id, '?stageId=nope'), 'stageId');
    const next = nextPath(await pipeline(org.key, flow.id, '?limit=1'));
    assert.ok(next);
    const cursor = new URL(next, 'http://x').searchParams.get('cursor')!;
    assert.equal((await pipeline(org.key, flow.id, `?limit=1&cursor=${encodeURIComponent(cursor)}`)).status, 200);
    assertValidation(await pipeline(org.key, flow.id, `?limit=1&status=active&cursor=${encodeURIComponent(cursor)}`), 'cursor');
    const other = await createFlow(org.organization.id, SCREEN_FLOW);
    assertValidation(await pipeline(org.key, other.id, `?limit=1&cursor=${encodeURIComponent(cursor)}`), 'cursor');
  });
});

describe('PATCH /api/v1/hiring-flows/{id}/candidates/{enrollmentId}', () => {
  const movedEvents = async (orgId: string, enrollmentId: string) =>
    (await db.query(`select payload from recruiting.outbox where organization_id = $1 and type = 'hiring_flow.candidate_moved' and payload->'data'->>'id' = $2 order by created_at, id`, [orgId, enrollmentId]))
      .rows.map((r) => r.payload);

  it('{stageId} moves the candidate, forwards or back, each move with a hiring_flow.candidate_moved event', async () => {
    const org = await newOrg();
    const { flow, enrollments: [e] } = await enrolledFlow(org, 1);
    await sleep(3);
    const forward = await move(org.key, flow.id, e!.id, { stageId: flow.stages[2]!.id });
    assert.equal(forward.status, 200, forward.text);
    assert.deepEqual(Object.keys(forward.body), ['data']);
    assert.deepEqual(forward.body.data, { ...e, stageId: flow.stages[2]!.id, movedAt: forward.body.data.movedAt });
    assert.ok(Date.parse(forward.body.data.movedAt) > Date.parse(e!.enrolledAt), 'movedAt advances');
    const back = await move(org.key, flow.id, e!.id, { stageId: flow.stages[1]!.id });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.data.stageId, flow.stages[1]!.id);
    const events = await movedEvents(org.organization.id, e!.id);
    assert.deepEqual(events.map((ev) => ev.data), [forward.body.data, back.body.data]);
    for (const ev of events) assert.match(ev.id, /^evt_/);
    assert.deepEqual((await pipeline(org.key, flow.id)).body.data, [back.body.data]);
  });

  it('{status: withdrawn | completed} ends the enrollment; an ended one is 409 enrollment_ended, and asking again for its status or stage answers it unchanged', async () => {
    const org = await newOrg();
    const { flow, enrollments: [w, c] } = await enrolledFlow(org, 2);
    const withdrawn = await move(org.key, flow.id, w!.id, { status: 'withdrawn' });
    assert.equal(withdrawn.status, 200, withdrawn.text);
    assert.equal(withdrawn.body.data.status, 'withdrawn');
    assert.equal(withdrawn.body.data.stageId, w!.stageId, 'stays in its stage');
    const completed = await move(org.key, flow.id, c!.id, { status: 'completed' });
    assert.equal(completed.body.data.status, 'completed');
    assertError(await move(org.key, flow.id, w!.id, { stageId: flow.stages[1]!.id }), 409, 'enrollment_ended');
    // The stage it is in, ended or not: unchanged (the OpenAPI description: "asking for the stage or status it already has returns it unchanged").
    const sameStage = await move(org.key, flow.id, w!.id, { stageId: w!.stageId });
    assert.equal(sameStage.status, 200, sameStage.text);
    assert.deepEqual(sameStage.body.data, withdrawn.body.data);
    assertError(await move(org.key, flow.id, w!.id, { status: 'completed' }), 409, 'enrollment_ended');
    assertError(await move(org.key, flow.id, c!.id, { status: 'withdrawn' }), 409, 'enrollment_ended');
    const again = await move(org.key, flow.id, w!.id, { status: 'withdrawn' });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, withdrawn.body.data);
    assert.equal((await movedEvents(org.organization.id, w!.id)).length, 1, 'one event: the repeat changed nothing');
    assert.equal((await movedEvents(org.organization.id, c!.id)).length, 1);
  });

  it('a move to the stage the candidate is in answers 200 unchanged and emits nothing; the audit trail records it, as every accepted PATCH', async () => {
    const org = await newOrg();
    const { flow, enrollments: [e] } = await enrolledFlow(org, 1);
    const res = await move(org.key, flow.id, e!.id, { stageId: e!.stageId });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.data, e);
    assert.deepEqual(await movedEvents(org.organization.id, e!.id), []);
    const audit = await db.query(`select action from recruiting.audit_events where resource_id = $1 and action = 'hiring_flow.candidate_moved'`, [e!.id]);
    assert.equal(audit.rows.length, 1);
  });

  it('concurrent ends of one enrollment: one 200, the other 409 enrollment_ended, one event', async () => {
    const org = await newOrg();
    const { flow, enrollments: [e] } = await enrolledFlow(org, 1);
    const answers = await Promise.all([move(org.key, flow.id, e!.id, { status: 'withdrawn' }), move(org.key, flow.id, e!.id, { status: 'completed' })]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], answers.map((r) => r.text).join('\n'));
    const winner = answers.find((r) => r.status === 200)!;
    assertError(answers.find((r) => r.status === 409)!, 409, 'enrollment_ended');
    assert.deepEqual((await movedEvents(org.organization.id, e!.id)).map((ev) => ev.data), [winner.body.data]);
  });

  it('422 for a stage of another flow, for both or neither of stageId and status, for status active and for unknown fields; nothing moves', async () => {
    const org = await newOrg();
    const { flow, enrollments: [e] } = await enrolledFlow(org, 1);
    const other = await createFlow(org.organization.id, SCREEN_FLOW);
    assertValidation(await move(org.key, flow.id, e!.id, { stageId: other.stages[1]!.id }), 'stageId');
    assertValidation(await move(org.key, flow.id, e!.id, { stageId: `stage_${'0'.repeat(23)}` }), 'stageId');
    assertValidation(await move(org.key, flow.id, e!.id, { stageId: flow.stages[1]!.id, status: 'completed' }));
    assertValidation(await move(org.key, flow.id, e!.id, {}));
    assertValidation(await move(org.key, flow.id, e!.id, { status: 'active' }), 'status');
    assertValidation(await move(org.key, flow.id, e!.id, { stageId: 'nope' }), 'stageId');
    assertValidation(await move(org.key, flow.id, e!.id, { stageId: flow.stages[1]!.id, candidateId: e!.candidateId }), 'candidateId');
    assertValidation(await move(org.key, flow.id, 'enr_!', { status: 'completed' }), 'enrollmentId');
    assert.deepEqual((await pipeline(org.key, flow.id)).body.data, [e]);
    assert.deepEqual(await movedEvents(org.organization.id, e!.id), []);
  });

  it('404 not_found for an unknown enrollment, one of another flow, and another organization\'s', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const { flow, enrollments: [e] } = await enrolledFlow(a, 1);
    const other = await enrolledFlow(a, 1);
    assertError(await move(a.key, flow.id, `enr_${'0'.repeat(23)}`, { status: 'completed' }), 404, 'not_found');
    assertError(await move(a.key, flow.id, other.enrollments[0]!.id, { status: 'completed' }), 404, 'not_found');
    assertError(await move(a.key, other.flow.id, e!.id, { status: 'completed' }), 404, 'not_found');
    assertError(await move(b.key, flow.id, e!.id, { status: 'completed' }), 404, 'not_found');
    assertError(await move(a.key, `flow_${'0'.repeat(23)}`, e!.id, { status: 'completed' }), 404, 'not_found');
    assert.deepEqual((await pipeline(a.key, flow.id)).body.data, [e]);
  });

  it('entering an ai_interview stage schedules an interview, keeps it while it is open, and schedules a new one after it was cancelled', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Data Engineer' });
    const flow = await createFlow(org.organization.id, {
      name: 'Screen then AI', positionId: position.id,
      stages: [{ name: 'Screen', kind: 'screen' }, { name: 'AI interview', kind: 'ai_interview' }, { name: 'Review', kind: 'review' }],
    });
    const candidate = await createCandidate(org.key);
    const e = (await enroll(org.key, flow.id, { candidateId: candidate.id })).body.data;
    assert.equal(e.interviewId, null);
    const entered = await move(org.key, flow.id, e.id, { stageId: flow.stages[1]!.id });
    assert.equal(entered.status, 200, entered.text);
    const first = entered.body.data.interviewId;
    assert.match(first, /^int_/);
    const interview = await call('GET', `/api/v1/interviews/${first}`, { key: org.key });
    assert.equal(interview.body.data.status, 'scheduled');
    assert.equal(interview.body.data.candidate.id, candidate.id);
    assert.equal(interview.body.data.positionId, position.id);
    assert.equal((await move(org.key, flow.id, e.id, { stageId: flow.stages[2]!.id })).body.data.interviewId, first, 'leaving the stage keeps the interview');
    assert.equal((await move(org.key, flow.id, e.id, { stageId: flow.stages[1]!.id })).body.data.interviewId, first, 'no second invite while the first is open');
    assert.equal((await call('DELETE', `/api/v1/interviews/${first}`, { key: org.key })).status, 200);
    await move(org.key, flow.id, e.id, { stageId: flow.stages[0]!.id });
    const again = await move(org.key, flow.id, e.id, { stageId: flow.stages[1]!.id });
    assert.match(again.body.data.interviewId, /^int_/);
    assert.notEqual(again.body.data.interviewId, first, 'a new interview once the first was cancelled');
    const interviews = await call('GET', `/api/v1/interviews?candidateId=${candidate.id}`, { key: org.key });
    assert.equal(interviews.body.data.length, 2);
  });

  it('is atomic: entering an ai_interview stage of a closed position is 409 position_closed, and nothing moves', async () => {
    const org = await newOrg();
    const position = await createPosition(org.key, { title: 'Closed later' });
    const flow = await createFlow(org.organization.id, { name: 'AI second', positionId: position.id, stages: [{ name: 'Screen', kind: 'screen' }, { name: 'AI', kind: 'ai_interview' }] });
    const e = (await enroll(org.key, flow.id, { candidateId: (await createCandidate(org.key)).id })).body.data;
    assert.equal((await call('PATCH', `/api/v1/positions/${position.id}`, { key: org.key, body: { status: 'closed' } })).status, 200);
    assertError(await move(org.key, flow.id, e.id, { stageId: flow.stages[1]!.id }), 409, 'position_closed');
    assert.deepEqual((await pipeline(org.key, flow.id)).body.data, [e]);
    assert.deepEqual(await movedEvents(org.organization.id, e.id), []);
    assert.deepEqual((await call('GET', '/api/v1/interviews', { key: org.key })).body.data, []);
  });

  it('hiring_flow.candidate_moved reaches a subscribed webhook and GET /events, with the enrollment as it is after the move', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startReceiver();
    try {
      const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['hiring_flow.candidate_moved'] } });
      assert.equal(hook.status, 201, hook.text);
      const { flow, enrollments: [e] } = await enrolledFlow(org, 1);
      const moved = (await move(org.key, flow.id, e!.id, { stageId: flow.stages[1]!.id })).body.data;
      const ended = (await move(org.key, flow.id, e!.id, { status: 'completed' })).body.data;
      const received = await eventually(async () => receiver.of('hiring_flow.candidate_moved'), (r) => r.length >= 2, 30_000);
      assert.deepEqual(received.map((r) => r.event.data).sort((x, y) => x.movedAt.localeCompare(y.movedAt)), [moved, ended]);
      assert.deepEqual(receiver.of('hiring_flow.candidate_enrolled'), [], 'the filter holds');
      for (const r of received) assert.equal(r.headers['webhook-id'], r.event.id);
      const events = await call('GET', '/api/v1/events?type=hiring_flow.candidate_moved', { key: org.key });
      assert.equal(events.status, 200, events.text);
      assert.deepEqual(events.body.data.map((ev: { id: string }) => ev.id).sort(), received.map((r) => r.event.id).sort());
    } finally {
      await receiver.close();
    }
  });
});
