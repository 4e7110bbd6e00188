import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { declineInvite, tokenOf, uniqueEmail } from './interview-helpers.js';
import { assertValidation, unique } from './api-assertions.js';
import { payloadTexts } from './temporal-history.js';

// PRODUCT.md §7 ATS event, §8 ats_event.processed; issue 4 item 5 (inbound ATS events).

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
// Polling makes many requests: a key with room for them.
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 6000);

const ACCEPTED_TYPES = ['candidate.created', 'candidate.updated', 'application.created', 'application.stage_changed', 'application.rejected', 'application.hired'];

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());


type Processed = { id: string; type: string; createdAt: string; data: Record<string, any> };

/** The `ats_event.processed` events of one ATS event in the integrations outbox. */
const processedEvents = async (orgId: string, atsEventId: string) =>
  (
    await db.query<{ payload: Processed }>(
      `select payload from integrations.outbox where organization_id = $1 and type = 'ats_event.processed' and payload->'data'->>'id' = $2 order by created_at, id`,
      [orgId, atsEventId],
    )
  ).rows.map((r) => r.payload);

/** Waits for the event's `ats_event.processed` and returns its data. */
async function processed(org: Org, atsEventId: string) {
  const events = await eventually(() => processedEvents(org.organization.id, atsEventId), (rows) => rows.length > 0, 30_000);
  assert.equal(events.length, 1, `expected one ats_event.processed for ${atsEventId}`);
  return events[0]!.data;
}

function event(overrides: Record<string, unknown> = {}) {
  return {
    source: 'greenhouse',
    eventId: `evt-${unique()}`,
    type: 'candidate.created',
    occurredAt: new Date().toISOString(),
    candidate: { externalId: `gh-cand-${unique()}`, email: uniqueEmail('ats'), name: 'Margaret Hamilton' },
    ...overrides,
  };
}

async function push(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/ats/events', { key, body });
  assert.equal(res.status, 202, res.text);
  return res.body.data as { id: string; status: 'accepted' | 'duplicate' };
}

/** Pushes an event, expects `accepted`, and waits until it has been processed. */
async function pushAndProcess(org: Org, body: Record<string, unknown>) {
  const accepted = await push(org.key, body);
  assert.equal(accepted.status, 'accepted');
  return { id: accepted.id, result: await processed(org, accepted.id) };
}

const candidatesWithExternalId = async (key: string, externalId: string) => {
  const res = await call('GET', `/api/v1/candidates?externalId=${encodeURIComponent(externalId)}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data as Record<string, any>[];
};

async function allPositions(key: string) {
  const res = await call('GET', '/api/v1/positions?limit=100', { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data as Record<string, any>[];
}

const interviewsOf = async (key: string, candidateId: string) => {
  const res = await call('GET', `/api/v1/interviews?candidateId=${candidateId}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data as Record<string, any>[];
};

describe('POST /api/v1/ats/events: acceptance', () => {
  let org: Org;
  before(async () => {
    org = await newOrg();
  });

  it('answers 202 {id: atsevt_…, status: accepted}', async () => {
    const res = await call('POST', '/api/v1/ats/events', { key: org.key, body: event() });
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(Object.keys(res.body.data).sort(), ['id', 'status']);
    assert.match(res.body.data.id, /^atsevt_/);
    assert.equal(res.body.data.status, 'accepted');
  });

  it('the same (source, eventId) again is `duplicate` with the same id and changes nothing', async () => {
    const first = event();
    const { id, result } = await pushAndProcess(org, first);
    assert.equal(result.status, 'processed');
    const [candidate] = await candidatesWithExternalId(org.key, first.candidate.externalId);
    assert.ok(candidate, 'the first event created the candidate');

    // Same event again, and the same eventId carrying different content: both are duplicates.
    const again = await push(org.key, first);
    assert.deepEqual(again, { id, status: 'duplicate' });
    const changed = { ...first, type: 'candidate.updated', candidate: { externalId: `gh-other-${unique()}`, email: uniqueEmail('dup'), name: 'Someone Else' } };
    const alsoAgain = await push(org.key, changed);
    assert.deepEqual(alsoAgain, { id, status: 'duplicate' });

    // Give a wrongly started workflow the time to run, then check nothing happened.
    await sleep(2000);
    assert.equal((await processedEvents(org.organization.id, id)).length, 1);
    assert.deepEqual(await candidatesWithExternalId(org.key, changed.candidate.externalId), []);
    const same = await candidatesWithExternalId(org.key, first.candidate.externalId);
    assert.equal(same.length, 1);
    assert.equal(same[0]!.id, candidate.id);
    assert.equal(same[0]!.name, 'Margaret Hamilton');
    assert.equal(same[0]!.updatedAt, candidate.updatedAt);
    const byEmail = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(changed.candidate.email)}`, { key: org.key });
    assert.deepEqual(byEmail.body.data, []);
    const rows = await db.query(`select id from integrations.ats_events where organization_id = $1 and source = $2 and event_id = $3`, [org.organization.id, first.source, first.eventId]);
    assert.equal(rows.rows.length, 1);
  });

  it('the same eventId from another source is a different event, accepted', async () => {
    const first = event();
    const a = await push(org.key, first);
    const b = await push(org.key, { ...first, source: 'lever', candidate: { externalId: `lv-${unique()}`, email: uniqueEmail('lever'), name: 'Lever Person' } });
    assert.equal(a.status, 'accepted');
    assert.equal(b.status, 'accepted');
    assert.notEqual(a.id, b.id);
  });

  it('the same (source, eventId) in another organization is a different event, accepted', async () => {
    const other = await newOrg();
    const body = event();
    const a = await push(org.key, body);
    const b = await push(other.key, { ...body, candidate: { ...body.candidate, email: uniqueEmail('other') } });
    assert.equal(a.status, 'accepted');
    assert.equal(b.status, 'accepted');
    assert.notEqual(a.id, b.id);
  });

  it('an unknown type is 422 naming every accepted type', async () => {
    const res = await call('POST', '/api/v1/ats/events', { key: org.key, body: event({ type: 'candidate.deleted' }) });
    assertValidation(res, 'type');
    const text = `${res.body.error.message} ${JSON.stringify(res.body.error.details)}`;
    for (const type of ACCEPTED_TYPES) assert.ok(text.includes(type), `the error should list ${type}: ${res.text}`);
  });

  it('422 for every other invalid field', async () => {
    const good = event();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, source: undefined }, 'source'],
      [{ ...good, source: 'Green House' }, 'source'],
      [{ ...good, source: 'x'.repeat(51) }, 'source'],
      [{ ...good, eventId: undefined }, 'eventId'],
      [{ ...good, eventId: '' }, 'eventId'],
      [{ ...good, eventId: 'x'.repeat(201) }, 'eventId'],
      [{ ...good, type: undefined }, 'type'],
      [{ ...good, occurredAt: undefined }, 'occurredAt'],
      [{ ...good, occurredAt: 'yesterday' }, 'occurredAt'],
      [{ ...good, occurredAt: '2024-13-45T00:00:00Z' }, 'occurredAt'],
      [{ ...good, occurredAt: '9999-12-31T23:59:59Z' }, 'occurredAt'],
      [{ ...good, occurredAt: new Date(Date.now() + 2 * 86_400_000).toISOString() }, 'occurredAt'],
      [{ ...good, occurredAt: '0001-01-01T00:00:00Z' }, 'occurredAt'],
      [{ ...good, candidate: undefined }, 'candidate'],
      [{ ...good, candidate: { email: uniqueEmail() } }, 'candidate.externalId'],
      [{ ...good, candidate: { externalId: 'x', email: 'not-an-email' } }, 'candidate.email'],
      [{ ...good, candidate: { externalId: 'x', colour: 'blue' } }, 'candidate.colour'],
      [{ ...good, job: { title: 'No id' } }, 'job.externalId'],
      [{ ...good, application: { stage: 'Onsite' } }, 'application.externalId'],
      [{ ...good, colour: 'blue' }, 'colour'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/api/v1/ats/events', { key: org.key, body });
      assertValidation(res, path);
    }
  });

  it('a rejected event is not stored, so it can be sent again once fixed', async () => {
    const body = event();
    const bad = await call('POST', '/api/v1/ats/events', { key: org.key, body: { ...body, occurredAt: 'nope' } });
    assert.equal(bad.status, 422);
    const good = await push(org.key, body);
    assert.equal(good.status, 'accepted');
  });

  it('needs the write scope', async () => {
    const readOnly = await newOrganizationWithKey(['read']);
    const res = await call('POST', '/api/v1/ats/events', { key: readOnly.key, body: event() });
    assert.equal(res.status, 403, res.text);
    assert.equal(res.body.error.code, 'insufficient_scope');
  });
});

describe('ATS event processing', () => {
  let org: Org;
  before(async () => {
    org = await newOrg();
  });

  it('candidate.created with e-mail and name creates a candidate findable by externalId, and emits ats_event.processed', async () => {
    const body = event();
    const { id, result } = await pushAndProcess(org, body);
    assert.equal(result.status, 'processed', JSON.stringify(result));
    assert.equal(result.id, id);
    assert.equal(result.source, 'greenhouse');
    assert.equal(result.eventId, body.eventId);
    assert.equal(result.type, 'candidate.created');
    const found = await candidatesWithExternalId(org.key, body.candidate.externalId);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.email, body.candidate.email);
    assert.equal(found[0]!.name, 'Margaret Hamilton');
    assert.equal(found[0]!.externalId, body.candidate.externalId);
    assert.equal(result.candidateId, found[0]!.id);
  });

  it('application.created creates the position by job externalId and matches the candidate by (source, externalId)', async () => {
    const created = event();
    await pushAndProcess(org, created);
    const [candidate] = await candidatesWithExternalId(org.key, created.candidate.externalId);
    assert.ok(candidate);

    const jobId = `gh-job-${unique()}`;
    // A different e-mail on purpose: matching must go by (source, externalId), not by e-mail.
    const application = event({
      type: 'application.created',
      candidate: { externalId: created.candidate.externalId, email: uniqueEmail('changed'), name: 'Margaret H.' },
      job: { externalId: jobId, title: 'Flight Software Engineer' },
      application: { externalId: `gh-app-${unique()}`, stage: 'Applied' },
    });
    const { result } = await pushAndProcess(org, application);
    assert.equal(result.status, 'processed', JSON.stringify(result));
    assert.equal(result.candidateId, candidate.id);

    const same = await candidatesWithExternalId(org.key, created.candidate.externalId);
    assert.deepEqual(same.map((c) => c.id), [candidate.id], 'no second candidate');
    const byNewEmail = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(application.candidate.email)}`, { key: org.key });
    assert.deepEqual(byNewEmail.body.data, []);

    const positions = (await allPositions(org.key)).filter((p) => p.externalId === jobId);
    assert.equal(positions.length, 1, 'one position with the job externalId');
    assert.equal(positions[0]!.title, 'Flight Software Engineer');
    assert.equal(positions[0]!.status, 'open');
    assert.equal(result.positionId, positions[0]!.id);

    // A second application for the same job matches that position rather than making another.
    const second = event({
      type: 'application.created',
      candidate: { externalId: `gh-cand-${unique()}`, email: uniqueEmail('second'), name: 'Second Applicant' },
      job: { externalId: jobId, title: 'Renamed in the ATS' },
    });
    const again = await pushAndProcess(org, second);
    assert.equal(again.result.status, 'processed', JSON.stringify(again.result));
    assert.equal(again.result.positionId, positions[0]!.id);
    assert.equal((await allPositions(org.key)).filter((p) => p.externalId === jobId).length, 1);
  });

  it('application.created for an unknown candidate with e-mail and name creates both', async () => {
    const jobId = `gh-job-${unique()}`;
    const body = event({ type: 'application.created', job: { externalId: jobId } });
    const { result } = await pushAndProcess(org, body);
    assert.equal(result.status, 'processed', JSON.stringify(result));
    const [candidate] = await candidatesWithExternalId(org.key, body.candidate.externalId);
    assert.equal(result.candidateId, candidate?.id);
    const position = (await allPositions(org.key)).find((p) => p.id === result.positionId);
    assert.ok(position, 'the position was created');
    assert.equal(position.externalId, jobId);
  });

  it('a stage change into a mapped stage (any case) schedules an AI interview for that candidate and position', async () => {
    const source = `ats${unique()}`.slice(0, 50);
    await createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys)
      .forOrganization(org.organization.id)
      .ats.setStageMappings.mutate({ source, stages: ['AI Screen', 'Technical Interview'] });

    const candidateExternalId = `cand-${unique()}`;
    const jobId = `job-${unique()}`;
    const created = await pushAndProcess(org, event({ source, type: 'application.created', candidate: { externalId: candidateExternalId, email: uniqueEmail('mapped'), name: 'Katherine Johnson' }, job: { externalId: jobId, title: 'Mathematician' } }));
    assert.equal(created.result.status, 'processed', JSON.stringify(created.result));
    const candidateId = created.result.candidateId as string;
    const positionId = created.result.positionId as string;
    assert.deepEqual(await interviewsOf(org.key, candidateId), []);

    const moved = await pushAndProcess(org, event({
      source,
      type: 'application.stage_changed',
      candidate: { externalId: candidateExternalId },
      job: { externalId: jobId },
      application: { externalId: `app-${unique()}`, stage: '  ai SCREEN ' },
    }));
    assert.equal(moved.result.status, 'processed', JSON.stringify(moved.result));
    assert.equal(moved.result.candidateId, candidateId);
    assert.equal(moved.result.positionId, positionId);
    assert.match(moved.result.interviewId, /^int_/);

    const interviews = await interviewsOf(org.key, candidateId);
    assert.equal(interviews.length, 1);
    assert.equal(interviews[0]!.id, moved.result.interviewId);
    assert.equal(interviews[0]!.positionId, positionId);
    assert.equal(interviews[0]!.candidate.id, candidateId);
    assert.equal(interviews[0]!.status, 'scheduled');
    const byPosition = await call('GET', `/api/v1/interviews?positionId=${positionId}`, { key: org.key });
    assert.deepEqual(byPosition.body.data.map((i: { id: string }) => i.id), [moved.result.interviewId]);
  });

  it('the same stage change again (a new eventId, or a retried activity) reuses the open interview', async () => {
    const source = `ats${unique()}`.slice(0, 50);
    await createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys).forOrganization(org.organization.id).ats.setStageMappings.mutate({ source, stages: ['AI Screen'] });
    const candidate = { externalId: `cand-${unique()}`, email: uniqueEmail('again'), name: 'Dorothy Vaughan' };
    const job = { externalId: `job-${unique()}`, title: 'Programmer' };
    await pushAndProcess(org, event({ source, type: 'application.created', candidate, job }));
    const move = () => pushAndProcess(org, event({ source, type: 'application.stage_changed', candidate: { externalId: candidate.externalId }, job, application: { externalId: 'app-1', stage: 'AI Screen' } }));
    const first = await move();
    const second = await move();
    assert.match(first.result.interviewId, /^int_/);
    assert.equal(second.result.interviewId, first.result.interviewId);
    assert.equal((await interviewsOf(org.key, first.result.candidateId)).length, 1);
  });

  it('a candidate matched by e-mail is linked to the ATS id, so later events with only the id find it', async () => {
    const email = uniqueEmail('linked');
    const existing = await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'Mary Jackson' } });
    const externalId = `cand-${unique()}`;
    const linked = await pushAndProcess(org, event({ type: 'candidate.created', candidate: { externalId, email } }));
    assert.equal(linked.result.status, 'processed', JSON.stringify(linked.result));
    assert.equal(linked.result.candidateId, existing.body.data.id);
    const found = await candidatesWithExternalId(org.key, externalId);
    assert.deepEqual(found.map((c) => c['id']), [existing.body.data.id]);
    const later = await pushAndProcess(org, event({ type: 'application.created', candidate: { externalId }, job: { externalId: `job-${unique()}` } }));
    assert.equal(later.result.status, 'processed', JSON.stringify(later.result));
    assert.equal(later.result.candidateId, existing.body.data.id);
  });

  it('an unmapped stage, or a mapped stage of another source, schedules nothing', async () => {
    const source = `ats${unique()}`.slice(0, 50);
    const recruiting = createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys).forOrganization(org.organization.id);
    await recruiting.ats.setStageMappings.mutate({ source, stages: ['AI Screen'] });
    await recruiting.ats.setStageMappings.mutate({ source: `${source}x`.slice(0, 50), stages: ['Offer'] });

    const candidate = { externalId: `cand-${unique()}`, email: uniqueEmail('unmapped'), name: 'Dorothy Vaughan' };
    const job = { externalId: `job-${unique()}`, title: 'Programmer' };
    const created = await pushAndProcess(org, event({ source, type: 'application.created', candidate, job }));
    const candidateId = created.result.candidateId as string;
    for (const stage of ['Offer', 'Screen', 'AI Screening']) {
      const moved = await pushAndProcess(org, event({ source, type: 'application.stage_changed', candidate: { externalId: candidate.externalId }, job: { externalId: job.externalId }, application: { externalId: 'app-1', stage } }));
      assert.equal(moved.result.status, 'processed', JSON.stringify(moved.result));
      assert.equal(moved.result.interviewId, null, stage);
    }
    // Another type that happens to carry a mapped stage is not a stage change.
    const hired = await pushAndProcess(org, event({ source, type: 'application.hired', candidate: { externalId: candidate.externalId }, job: { externalId: job.externalId }, application: { externalId: 'app-1', stage: 'AI Screen' } }));
    assert.equal(hired.result.status, 'processed', JSON.stringify(hired.result));
    assert.equal(hired.result.interviewId, null);
    assert.deepEqual(await interviewsOf(org.key, candidateId), []);
  });

  it('a candidate event that cannot be applied is processed as failed (unknown candidate, no e-mail)', async () => {
    const externalId = `ghost-${unique()}`;
    const { id, result } = await pushAndProcess(org, event({ candidate: { externalId, name: 'Nobody' } }));
    assert.equal(result.id, id);
    assert.equal(result.status, 'failed', JSON.stringify(result));
    assert.equal(result.type, 'candidate.created');
    assert.equal(typeof result.error?.code, 'string');
    assert.equal(typeof result.error?.message, 'string');
    assert.deepEqual(await candidatesWithExternalId(org.key, externalId), []);
    const row = await db.query(`select status from integrations.ats_events where id = $1`, [id]);
    assert.equal(row.rows[0]?.status, 'failed');
  });

  it("an update to another candidate's e-mail is a permanent refusal: failed as candidate_exists after one attempt", async () => {
    const first = event();
    const second = event();
    await pushAndProcess(org, first);
    await pushAndProcess(org, second);
    const clash = event({ type: 'candidate.updated', candidate: { externalId: second.candidate.externalId, email: first.candidate.email } });
    const { id, result } = await pushAndProcess(org, clash);
    assert.equal(result.status, 'failed', JSON.stringify(result));
    assert.equal(result.error?.code, 'candidate_exists');
    // The event has no `candidateId` field to point at: the message names the other candidate's id.
    const [holder] = await candidatesWithExternalId(org.key, first.candidate.externalId);
    assert.ok(holder);
    assert.ok(result.error?.message.includes(holder.id) && !result.error.message.includes('candidateId'), result.error?.message);
    const [unchanged] = await candidatesWithExternalId(org.key, second.candidate.externalId);
    assert.equal(unchanged?.email, second.candidate.email);

    const connection = await Connection.connect({ address: testEnv().temporalAddress });
    try {
      const history = await new Client({ connection }).workflow.getHandle(`ats:${id}`).fetchHistory();
      const attempts = (history.events ?? []).flatMap((e) => (e.activityTaskStartedEventAttributes ? [e.activityTaskStartedEventAttributes.attempt] : []));
      assert.deepEqual(attempts, [1, 1], 'applyAtsEvent refused once, not retried; finishAtsEvent once');
      // Ids only (CLARIFICATIONS "Workflows"): the payload is read by the activity, and the refusal
      // does not echo the e-mail, so no personal data sits in the history.
      const texts = payloadTexts(history).join('\n');
      assert.match(texts, new RegExp(id));
      for (const personal of [first.candidate.email, second.candidate.email, first.candidate.name]) {
        assert.ok(!texts.includes(personal as string), `the history of ats:${id} holds ${personal}`);
      }
    } finally {
      await connection.close();
    }
  });

  it('an event whose candidate was erased before it was applied (its payload redacted) is refused for good, not retried as a 500', async () => {
    const { id } = await pushAndProcess(org, event());
    await db.query(`update integrations.ats_events set payload = payload - 'candidate' || '{"redacted": true}'::jsonb where id = $1`, [id]);
    const integrations = createIntegrationsClient(process.env['INTEGRATIONS_URL']!, testEnv().internalTokenKeys).forOrganization(org.organization.id);
    await assert.rejects(integrations.ats.payload.query({ id }), (err: { message: string; data?: { httpStatus?: number } }) => {
      assert.equal(err.data?.httpStatus, 404, err.message);
      assert.match(err.message, /erased before it was applied/);
      return true;
    });
  });

  it('a kept event that no longer passes validation (a bound added since it was accepted) is refused for good with the reason, not a 500', async () => {
    const { id } = await pushAndProcess(org, event());
    await db.query(`update integrations.ats_events set payload = jsonb_set(payload, '{occurredAt}', '"9999-12-31T23:59:59Z"') where id = $1`, [id]);
    const integrations = createIntegrationsClient(process.env['INTEGRATIONS_URL']!, testEnv().internalTokenKeys).forOrganization(org.organization.id);
    await assert.rejects(integrations.ats.payload.query({ id }), (err: { message: string; data?: { httpStatus?: number } }) => {
      assert.equal(err.data?.httpStatus, 422, err.message);
      assert.match(err.message, /no longer passes validation: occurredAt/);
      return true;
    });
  });

  it('every accepted event gets exactly one ats_event.processed', async () => {
    const bodies = [event(), event({ type: 'candidate.updated', candidate: { externalId: `none-${unique()}` } }), event({ type: 'application.created', job: { externalId: `job-${unique()}` } })];
    const ids: string[] = [];
    for (const body of bodies) ids.push((await push(org.key, body)).id);
    for (const id of ids) {
      const data = await processed(org, id);
      assert.ok(['processed', 'failed'].includes(data.status as string), JSON.stringify(data));
    }
    await sleep(1000);
    for (const id of ids) assert.equal((await processedEvents(org.organization.id, id)).length, 1);
  });
});

describe('ATS events across organizations', () => {
  it('a candidate matched by externalId in one organization is never matched from another', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const externalId = `shared-${unique()}`;
    const jobId = `shared-job-${unique()}`;
    const inA = await pushAndProcess(a, event({ type: 'application.created', candidate: { externalId, email: uniqueEmail('a'), name: 'Org A Person' }, job: { externalId: jobId, title: 'A role' } }));
    assert.equal(inA.result.status, 'processed', JSON.stringify(inA.result));
    const candidateA = inA.result.candidateId as string;
    const positionA = inA.result.positionId as string;

    // B does not see A's candidate by externalId.
    assert.deepEqual(await candidatesWithExternalId(b.key, externalId), []);

    // B refers to the same externalId without e-mail: unknown in B, so it fails rather than matching A's.
    const noEmail = await pushAndProcess(b, event({ type: 'candidate.updated', candidate: { externalId, name: 'Renamed' } }));
    assert.equal(noEmail.result.status, 'failed', JSON.stringify(noEmail.result));
    assert.notEqual(noEmail.result.candidateId, candidateA);

    // B's stage mapping and a stage change must not schedule anything for A's candidate.
    await createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys).forOrganization(b.organization.id).ats.setStageMappings.mutate({ source: 'greenhouse', stages: ['AI Screen'] });
    const inB = await pushAndProcess(b, event({ type: 'application.created', candidate: { externalId, email: uniqueEmail('b'), name: 'Org B Person' }, job: { externalId: jobId, title: 'B role' } }));
    assert.equal(inB.result.status, 'processed', JSON.stringify(inB.result));
    assert.notEqual(inB.result.candidateId, candidateA);
    assert.notEqual(inB.result.positionId, positionA);
    const moved = await pushAndProcess(b, event({ type: 'application.stage_changed', candidate: { externalId }, job: { externalId: jobId }, application: { externalId: 'app', stage: 'AI Screen' } }));
    assert.equal(moved.result.status, 'processed', JSON.stringify(moved.result));
    assert.equal(moved.result.candidateId, inB.result.candidateId);
    assert.match(moved.result.interviewId, /^int_/);

    // A's candidate and position are untouched and out of B's reach.
    const fromA = await candidatesWithExternalId(a.key, externalId);
    assert.deepEqual(fromA.map((c) => c.id), [candidateA]);
    assert.equal(fromA[0]!.name, 'Org A Person');
    assert.deepEqual(await interviewsOf(a.key, candidateA), []);
    const fromB = await candidatesWithExternalId(b.key, externalId);
    assert.deepEqual(fromB.map((c) => c.id), [inB.result.candidateId]);
    assert.equal((await call('GET', `/api/v1/candidates/${candidateA}`, { key: b.key })).status, 404);
    assert.equal((await call('GET', `/api/v1/positions/${positionA}`, { key: b.key })).status, 404);
    assert.ok(!(await allPositions(b.key)).some((p) => p.id === positionA));
    // Events are recorded for the organization that sent them only.
    assert.deepEqual(await processedEvents(b.organization.id, inA.id), []);
  });
});

describe('POST /api/v1/ats/events: order by occurredAt, rejections, hires, declines and stage names', () => {
  let org: Org;
  let source: string;
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
  before(async () => {
    org = await newOrg();
    source = `ats${unique()}`.slice(0, 50);
    await createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys)
      .forOrganization(org.organization.id)
      .ats.setStageMappings.mutate({ source, stages: ['AI Screen', 'Évaluation IA', 'STRASSE'] });
  });
  /** A new candidate's application to a new job, created `minutesAgo`; the ids and a maker of later events. */
  async function application(minutesAgo: number, stage?: string) {
    const candidate = { externalId: `cand-${unique()}`, email: uniqueEmail('order'), name: 'Grace Hopper' };
    const job = { externalId: `job-${unique()}`, title: 'Compiler Engineer' };
    const created = await pushAndProcess(org, event({ source, type: 'application.created', occurredAt: at(minutesAgo), candidate, job, application: { externalId: 'app-1', ...(stage ? { stage } : {}) } }));
    assert.equal(created.result.status, 'processed', JSON.stringify(created.result));
    const next = (type: string, minutes: number, stage?: string) =>
      pushAndProcess(org, event({ source, type, occurredAt: at(minutes), candidate: { externalId: candidate.externalId }, job: { externalId: job.externalId }, application: { externalId: 'app-1', ...(stage ? { stage } : {}) } }));
    return { candidate, job, created: created.result, next };
  }
  const interview = async (id: string) => (await call('GET', `/api/v1/interviews/${id}`, { key: org.key })).body.data;

  it('a candidate.updated older than one already applied changes nothing, and says superseded', async () => {
    const externalId = `cand-${unique()}`;
    await pushAndProcess(org, event({ source, occurredAt: at(60), candidate: { externalId, email: uniqueEmail('order'), name: 'Original' } }));
    const newest = await pushAndProcess(org, event({ source, type: 'candidate.updated', occurredAt: at(30), candidate: { externalId, name: 'Newest Name' } }));
    assert.equal(newest.result.candidateAction, 'updated');
    const stale = await pushAndProcess(org, event({ source, type: 'candidate.updated', occurredAt: at(50), candidate: { externalId, name: 'Stale Name' } }));
    assert.equal(stale.result.status, 'processed', JSON.stringify(stale.result));
    assert.deepEqual([stale.result.candidateAction, stale.result.superseded], ['superseded', true]);
    assert.deepEqual((await candidatesWithExternalId(org.key, externalId)).map((c) => c.name), ['Newest Name']);
  });

  it('an application created in a mapped stage schedules the AI interview; rejecting it cancels the interview; a late older stage change schedules nothing', async () => {
    const app = await application(60, 'AI Screen');
    assert.match(app.created.interviewId, /^int_/, 'created in a mapped stage');
    const rejected = await app.next('application.rejected', 20);
    assert.deepEqual(rejected.result.cancelledInterviewIds, [app.created.interviewId]);
    const cancelled = await interview(app.created.interviewId);
    assert.equal(cancelled.status, 'cancelled');
    assert.match(cancelled.cancellationReason, new RegExp(`rejected in ${source}`));
    const late = await app.next('application.stage_changed', 40, 'AI Screen');
    assert.deepEqual([late.result.interviewId, late.result.superseded], [null, true]);
    assert.equal((await interviewsOf(org.key, app.created.candidateId)).length, 1, 'no new interview for a rejected application');
    // The ATS reopens the application later: a newer stage change schedules again.
    const reopened = await app.next('application.stage_changed', 1, 'AI Screen');
    assert.match(reopened.result.interviewId, /^int_/);
    assert.notEqual(reopened.result.interviewId, app.created.interviewId);
    assert.equal((await interview(reopened.result.interviewId)).status, 'scheduled');
  });

  it('a hire cancels the open AI interview; a stage change sent before the hire but arriving after it schedules nothing', async () => {
    const app = await application(60);
    const moved = await app.next('application.stage_changed', 50, 'AI Screen');
    const hired = await app.next('application.hired', 10);
    assert.deepEqual(hired.result.cancelledInterviewIds, [moved.result.interviewId]);
    const late = await app.next('application.stage_changed', 30, 'AI Screen');
    assert.deepEqual([late.result.interviewId, late.result.superseded], [null, true]);
    assert.deepEqual((await interviewsOf(org.key, app.created.candidateId)).map((i) => i.status), ['cancelled']);
  });

  it('a candidate who declined the AI interview is not invited to another by the next stage change', async () => {
    const app = await application(60);
    const moved = await app.next('application.stage_changed', 50, 'AI Screen');
    const res = await declineInvite(tokenOf((await interview(moved.result.interviewId)).inviteUrl));
    assert.ok(res.status < 400, `decline: ${res.status}`);
    assert.equal((await interview(moved.result.interviewId)).status, 'declined');
    const again = await app.next('application.stage_changed', 10, 'AI Screen');
    assert.equal(again.result.interviewId, moved.result.interviewId, 'the declined interview, not a new one');
    assert.equal((await interviewsOf(org.key, app.created.candidateId)).length, 1);
  });

  it('a candidate.updated for a candidate the API made (matched by e-mail) links it and changes its name; a later older one is superseded', async () => {
    const email = uniqueEmail('api-made');
    const made = await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'Made By Api' } });
    const externalId = `cand-${unique()}`;
    const newer = await pushAndProcess(org, event({ source, type: 'candidate.updated', occurredAt: at(10), candidate: { externalId, email, name: 'Named By Ats' } }));
    assert.deepEqual([newer.result.candidateId, newer.result.candidateAction], [made.body.data.id, 'updated']);
    const older = await pushAndProcess(org, event({ source, type: 'candidate.updated', occurredAt: at(20), candidate: { externalId, name: 'Older Name' } }));
    assert.deepEqual([older.result.candidateAction, older.result.superseded], ['superseded', true]);
    const got = await call('GET', `/api/v1/candidates/${made.body.data.id}`, { key: org.key });
    assert.deepEqual([got.body.data.name, got.body.data.externalId], ['Named By Ats', externalId]);
  });

  it('a rejection and a stage change with the same occurredAt: the rejection wins, whichever is processed last', async () => {
    const same = at(30);
    const send = (app: Awaited<ReturnType<typeof application>>, type: string) =>
      pushAndProcess(org, event({ source, type, occurredAt: same, candidate: { externalId: app.candidate.externalId }, job: { externalId: app.job.externalId }, application: { externalId: 'app-1', stage: 'AI Screen' } }));
    const rejectedFirst = await application(60);
    await send(rejectedFirst, 'application.rejected');
    const moved = await send(rejectedFirst, 'application.stage_changed');
    assert.deepEqual([moved.result.interviewId, moved.result.superseded], [null, true]);
    const movedFirst = await application(60);
    const scheduled = await send(movedFirst, 'application.stage_changed');
    const rejected = await send(movedFirst, 'application.rejected');
    assert.deepEqual([rejected.result.superseded, rejected.result.cancelledInterviewIds], [false, [scheduled.result.interviewId]]);
  });

  it('`api` is not an ATS source (it names the records made through this API): 422', async () => {
    assertValidation(await call('POST', '/api/v1/ats/events', { key: org.key, body: event({ source: 'api' }) }), 'source');
  });

  it('stage names match in any Unicode form and case: decomposed accents, ß, ẞ and SS', async () => {
    for (const stage of ['E\u0301valuation IA', 'évaluation ia', 'Straße', 'STRAẞE']) {
      const app = await application(60);
      const moved = await app.next('application.stage_changed', 30, stage);
      assert.match(moved.result.interviewId ?? '', /^int_/, stage);
    }
  });
});
