import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { newPosition, uniqueEmail } from './interview-helpers.js';
import { assertError, unique } from './api-assertions.js';

// PRODUCT.md §7 and CLARIFICATIONS "Creating candidates in parallel" (issue 7 item 2): parallel
// requests that create the same new candidate never fail for it, on every route that may create
// one, and there is one candidate in the end.

const PARALLEL = 20;

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
// 20 requests at once plus polling: a key with room for them.
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 6000);

const times = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));

async function candidatesWithEmail(key: string, email: string) {
  const res = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { id: string; email: string; name: string }[];
}

/** Waits until every one of these ATS events has its `ats_event.processed`, and checks none failed. */
async function waitProcessed(orgId: string, atsIds: string[]) {
  const db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
  try {
    const processed = await eventually(
      async () =>
        (
          await db.query<{ data: { id: string; status: string } }>(
            `select payload->'data' as data from integrations.outbox where organization_id = $1 and type = 'ats_event.processed' and payload->'data'->>'id' = any($2::text[])`,
            [orgId, atsIds],
          )
        ).rows,
      (rows) => rows.length === atsIds.length,
      60_000,
    );
    for (const { data } of processed) assert.equal(data.status, 'processed', JSON.stringify(data));
  } finally {
    await db.end();
  }
}

describe('parallel creates of the same new candidate', () => {
  it(`POST /interviews: ${PARALLEL} at once with one new e-mail all get 201, for one candidate`, async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const email = uniqueEmail('race-int');
    const responses = await times(PARALLEL, () => call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email, name: 'Grace Hopper' } } }));
    for (const res of responses) assert.equal(res.status, 201, res.text);
    const candidates = await candidatesWithEmail(org.key, email);
    assert.equal(candidates.length, 1);
    const ids = new Set(responses.map((r) => (r.body.data as { candidate: { id: string } }).candidate.id));
    assert.deepEqual([...ids], [candidates[0]!.id]);
    assert.equal(new Set(responses.map((r) => (r.body.data as { id: string }).id)).size, PARALLEL, 'one interview per request');
  });

  it(`POST /hiring-flows/{id}/candidates: ${PARALLEL} at once for one new person give one 201 and already_enrolled for the rest`, async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const recruiting = createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!).forOrganization(org.organization.id);
    // An ai_interview first stage: the enrollment also schedules an interview in its transaction.
    const flow = await recruiting.flows.create.mutate({ name: 'Race', positionId: position.id, stages: [{ name: 'AI interview', kind: 'ai_interview' }, { name: 'Offer', kind: 'offer' }] });
    const email = uniqueEmail('race-enr');
    const responses = await times(PARALLEL, () => call('POST', `/api/v1/hiring-flows/${flow.id}/candidates`, { key: org.key, body: { candidate: { email, name: 'Katherine Johnson' } } }));
    const created = responses.filter((r) => r.status === 201);
    assert.equal(created.length, 1, responses.map((r) => `${r.status} ${r.text}`).join('\n'));
    for (const res of responses.filter((r) => r.status !== 201)) assertError(res, 409, 'already_enrolled');
    const candidates = await candidatesWithEmail(org.key, email);
    assert.equal(candidates.length, 1);
    assert.equal((created[0]!.body.data as { candidateId: string }).candidateId, candidates[0]!.id);
    const interviews = await call('GET', `/api/v1/interviews?candidateId=${candidates[0]!.id}`, { key: org.key });
    assert.equal((interviews.body.data as unknown[]).length, 1, 'the one enrollment scheduled one interview');
  });

  it(`POST /hiring-flows/{id}/candidates: one new person enrolled in ${PARALLEL} flows at once is one candidate`, async () => {
    const org = await newOrg();
    const recruiting = createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!).forOrganization(org.organization.id);
    const flows = await times(PARALLEL, (i) => recruiting.flows.create.mutate({ name: `Flow ${i}`, stages: [{ name: 'Screen', kind: 'screen' }] }));
    const email = uniqueEmail('race-flows');
    const responses = await Promise.all(flows.map((flow) => call('POST', `/api/v1/hiring-flows/${flow.id}/candidates`, { key: org.key, body: { candidate: { email, name: 'Dorothy Vaughan' } } })));
    for (const res of responses) assert.equal(res.status, 201, res.text);
    const candidates = await candidatesWithEmail(org.key, email);
    assert.equal(candidates.length, 1);
    assert.deepEqual([...new Set(responses.map((r) => (r.body.data as { candidateId: string }).candidateId))], [candidates[0]!.id]);
  });

  it(`POST /ats/events: ${PARALLEL} events (distinct eventIds) about one new candidate and job all succeed, for one candidate, one position and one interview`, async () => {
    const org = await newOrg();
    // A stage that schedules an AI interview: the parallel events must not schedule one each.
    await createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!)
      .forOrganization(org.organization.id)
      .ats.setStageMappings.mutate({ source: 'greenhouse', stages: ['AI Screen'] });
    const email = uniqueEmail('race-ats');
    const externalId = `gh-cand-${unique()}`;
    const jobId = `gh-job-${unique()}`;
    const responses = await times(PARALLEL, (i) =>
      call('POST', '/api/v1/ats/events', {
        key: org.key,
        body: {
          source: 'greenhouse',
          eventId: `evt-race-${unique()}-${i}`,
          type: 'application.stage_changed',
          occurredAt: new Date().toISOString(),
          candidate: { externalId, email, name: 'Mary Jackson' },
          job: { externalId: jobId, title: 'Aerospace Engineer' },
          application: { externalId: `gh-app-${unique()}-${i}`, stage: 'AI Screen' },
        },
      }),
    );
    for (const res of responses) assert.equal(res.status, 202, res.text);
    const atsIds = responses.map((r) => (r.body.data as { id: string; status: string }).id);
    assert.ok(responses.every((r) => (r.body.data as { status: string }).status === 'accepted'));

    await waitProcessed(org.organization.id, atsIds);
    const candidates = await candidatesWithEmail(org.key, email);
    assert.equal(candidates.length, 1);
    const positions = await call('GET', '/api/v1/positions?limit=100', { key: org.key });
    assert.equal((positions.body.data as { externalId: string | null }[]).filter((p) => p.externalId === jobId).length, 1);
    const interviews = await call('GET', `/api/v1/interviews?candidateId=${candidates[0]!.id}`, { key: org.key });
    assert.equal((interviews.body.data as unknown[]).length, 1, 'one open interview for the candidate and position');

    // Candidate and position both known now: parallel stage changes into a mapped stage for a
    // second job (created first) still schedule one interview.
    const job2 = `gh-job-${unique()}`;
    const seed = await call('POST', '/api/v1/ats/events', { key: org.key, body: { source: 'greenhouse', eventId: `evt-seed-${unique()}`, type: 'application.created', occurredAt: new Date().toISOString(), candidate: { externalId }, job: { externalId: job2, title: 'Flight Engineer' } } });
    assert.equal(seed.status, 202, seed.text);
    await waitProcessed(org.organization.id, [(seed.body.data as { id: string }).id]);
    const moves = await times(PARALLEL, (i) =>
      call('POST', '/api/v1/ats/events', {
        key: org.key,
        body: { source: 'greenhouse', eventId: `evt-move-${unique()}-${i}`, type: 'application.stage_changed', occurredAt: new Date().toISOString(), candidate: { externalId }, job: { externalId: job2 }, application: { externalId: `gh-app2-${i}`, stage: 'AI Screen' } },
      }),
    );
    await waitProcessed(org.organization.id, moves.map((r) => (r.body.data as { id: string }).id));
    const after = await call('GET', `/api/v1/interviews?candidateId=${candidates[0]!.id}`, { key: org.key });
    assert.equal((after.body.data as unknown[]).length, 2, 'one open interview per position');
  });
});
