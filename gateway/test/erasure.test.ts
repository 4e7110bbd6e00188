import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { ID_PREFIXES } from '@hireloop/contracts';
import { createDb, createPool, InternalTokenCache, integrationsEventSink, newId, type PublishedEvent } from '@hireloop/platform';
import type { IntegrationsDB } from '@hireloop/integrations/db';
import { ingestOwnEvents } from '@hireloop/integrations/deliveries/ingest';
import { call, eventually, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';
import { assertError, unique } from './api-assertions.js';
import { tablesHolding } from './erasure-scan.js';
import { newPosition, startInvite, submitInvite, tokenOf } from './interview-helpers.js';
import { payloadTexts } from './temporal-history.js';
import { startReceiver } from './webhook-receiver.js';

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;

/**
 * DELETE /candidates/{id} (PRODUCT.md §7, CLARIFICATIONS "Erasure and sync"), end to end: a person
 * named by an ATS event that failed before resolving to anyone, who came in through an ATS event, was interviewed (with an Idempotency-Key), answered, was
 * evaluated and reviewed, and was enrolled in a flow, is erased; then their name, e-mail, answers,
 * evaluation text and the reviewer's note are looked for in every table of every schema, in the
 * Temporal histories of the organization's workflows, in the events the API and webhooks give,
 * and in the processes' logs of this run.
 */
describe('DELETE /api/v1/candidates/{id}: erasure', () => {
  const tag = unique();
  const person = { name: `Ottoline Erasable ${tag}`, email: `erase-${tag}@example.com` };
  const answers = [`My answer one ${tag} about distributed queues`, `My answer two ${tag} about a hard bug`];
  const note = `Reviewer note about the person ${tag}`;
  const idemKey = `erasure-${tag}`;
  let org: Org;
  let other: Org;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let db: pg.Client;
  let connection: Connection;
  let temporal: Client;
  let candidateId: string;
  let interview: { id: string; inviteUrl: string };
  let enrollmentId: string;
  let flowId: string;
  let task: { id: string; kind: string; status: string; candidateId: string | null };
  let scoreBefore: number;
  let relayedEarly: PublishedEvent;
  let ownEarly: PublishedEvent;
  let namingTaskId: string;

  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    other = await newOrganizationWithKey(['read', 'write', 'admin']);
    receiver = await startReceiver();
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
    const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: receiver.url, events: ['*'] } });
    assert.equal(hook.status, 201, hook.text);

    // An ATS event that names the person's e-mail but fails before resolving to a candidate (no
    // name for an unknown person): integrations keeps its payload, with no candidate id to find it by.
    const unresolved = await call('POST', '/api/v1/ats/events', {
      key: org.key,
      body: { source: 'lever', eventId: `ev-early-${tag}`, type: 'candidate.updated', occurredAt: new Date().toISOString(), candidate: { externalId: `lv-${tag}`, email: person.email } },
    });
    assert.equal(unresolved.status, 202, unresolved.text);
    const early = await eventually(async () => (await db.query('select status from integrations.ats_events where id = $1', [unresolved.body.data.id])).rows[0]?.status, (s) => s === 'failed', 30_000);
    assert.equal(early, 'failed');

    // The person arrives from an ATS, so integrations stores the ATS payload with their details.
    const ats = await call('POST', '/api/v1/ats/events', {
      key: org.key,
      body: { source: 'greenhouse', eventId: `ev-${tag}`, type: 'candidate.created', occurredAt: new Date().toISOString(), candidate: { externalId: `gh-${tag}`, email: person.email, name: person.name } },
    });
    assert.equal(ats.status, 202, ats.text);
    const found = await eventually(() => call('GET', `/api/v1/candidates?email=${encodeURIComponent(person.email)}`, { key: org.key }), (r) => r.body.data?.length === 1, 30_000);
    candidateId = found.body.data[0].id;

    const position = await newPosition(org.key);
    const scheduled = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email: person.email } }, headers: { 'idempotency-key': idemKey } });
    assert.equal(scheduled.status, 201, scheduled.text);
    interview = scheduled.body.data;
    const token = tokenOf(interview.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    assert.equal((await submitInvite(token, answers)).status, 303);
    const evaluation = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: org.key })).body.data,
      (e) => e?.status === 'completed',
      60_000,
    );
    scoreBefore = evaluation.overallScore;
    const review = await call('POST', `/api/v1/interviews/${interview.id}/evaluation/review`, { key: org.key, body: { decision: 'advance', note } });
    assert.equal(review.status, 200, review.text);

    const flow = await createRecruitingClient(testEnv().recruitingUrl, testEnv().internalTokenKeys)
      .forOrganization(org.organization.id)
      .flows.create.mutate({ name: `Flow ${tag}`, stages: [{ name: 'Screen', kind: 'screen' }] });
    flowId = flow.id;
    const enrolled = await call('POST', `/api/v1/hiring-flows/${flow.id}/candidates`, { key: org.key, body: { candidateId } });
    assert.equal(enrolled.status, 201, enrolled.text);
    enrollmentId = enrolled.body.data.id;
    // Every event about the person has reached the event store (and the receiver) before the erasure.
    await eventually(async () => receiver.of('hiring_flow.candidate_enrolled').length + receiver.of('evaluation.reviewed').length, (n) => n >= 2, 30_000);

    // A stored task request that names the person by id and in words (no route stores one today;
    // a task kind that takes a candidate would): the scrub keeps its ids only.
    namingTaskId = newId(ID_PREFIXES.task);
    await db.query(
      `insert into integrations.tasks (id, organization_id, kind, status, input) values ($1, $2, 'job_description', 'succeeded', $3)`,
      [namingTaskId, org.organization.id, JSON.stringify({ title: `Brief for ${person.name}`, candidateId, interview: { id: interview.id, contact: person.email } })],
    );

    // An event of integrations' own that names the person, which its outbox publisher claimed
    // before the erasure (the lease keeps every publisher off it meanwhile), kept to be handed in
    // after the scrub as that publisher would.
    ownEarly = {
      id: newId(ID_PREFIXES.event),
      type: 'task.succeeded',
      createdAt: new Date().toISOString(),
      data: { id: namingTaskId, kind: 'job_description', status: 'succeeded', candidateId, result: { text: `Brief for ${person.name}` } },
      organizationId: org.organization.id,
    };
    const { organizationId: _, ...ownEnvelope } = ownEarly;
    await db.query(
      `insert into integrations.outbox (id, organization_id, type, payload, created_at, lease_until) values ($1, $2, $3, $4, $5, now() + interval '1 hour')`,
      [ownEarly.id, org.organization.id, ownEarly.type, JSON.stringify(ownEnvelope), ownEarly.createdAt],
    );

    // The envelope recruiting's outbox relay reads for the interview (it names the person), kept
    // to be handed in after the scrub as a relay round trip that straddled it would.
    const outboxRow = (await db.query('select payload from recruiting.outbox where organization_id = $1 and type = $2', [org.organization.id, 'interview.scheduled'])).rows[0];
    relayedEarly = { ...outboxRow.payload, organizationId: org.organization.id };
    assert.ok(JSON.stringify(relayedEarly).includes(person.email), 'the relay read the person');

    // The scan below finds the person before the erasure (so it can fail after it).
    const before = await tablesHolding(db, needles);
    for (const table of ['recruiting.candidates', 'recruiting.interview_turns', 'recruiting.evaluations', 'recruiting.outbox', 'integrations.events', 'integrations.ats_events', 'integrations.tasks']) {
      assert.ok(before.includes(table), `${table} holds the person before the erasure (found in ${before.join(', ')})`);
    }

    const erased = await call('DELETE', `/api/v1/candidates/${candidateId}`, { key: org.key });
    assert.equal(erased.status, 202, erased.text);
    task = erased.body.data;
    assert.equal(erased.headers.get('location'), `/api/v1/tasks/${task.id}`);
  });

  const needles = [person.name, person.email, ...answers, note];

  after(async () => {
    await receiver.close();
    await db.end();
    await connection.close();
  });

  it('answers 202 with a candidate_erasure task for the candidate', () => {
    assert.equal(task.kind, 'candidate_erasure');
    assert.equal(task.candidateId, candidateId);
    assert.ok(['queued', 'running', 'succeeded'].includes(task.status), task.status);
  });

  it('is 404 everywhere from that response on: the candidate, its interview, its evaluation, the invite page; and in no list', async () => {
    const key = org.key;
    assertError(await call('GET', `/api/v1/candidates/${candidateId}`, { key }), 404, 'not_found');
    assertError(await call('PATCH', `/api/v1/candidates/${candidateId}`, { key, body: { name: 'Again' } }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/interviews/${interview.id}`, { key }), 404, 'not_found');
    assertError(await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key }), 404, 'not_found');
    assertError(await call('DELETE', `/api/v1/interviews/${interview.id}`, { key }), 404, 'not_found');
    const page = await fetch(`${testEnv().gatewayUrl}${new URL(interview.inviteUrl).pathname}`);
    assert.equal(page.status, 404);
    assert.deepEqual((await call('GET', `/api/v1/candidates?email=${encodeURIComponent(person.email)}`, { key })).body.data, []);
    assert.ok(!(await call('GET', '/api/v1/candidates?limit=100', { key })).body.data.some((c: { id: string }) => c.id === candidateId));
    assert.deepEqual((await call('GET', `/api/v1/interviews?candidateId=${candidateId}`, { key })).body.data, []);
    const sync = await call('GET', '/api/v1/candidates?updatedAfter=2000-01-01T00:00:00Z&limit=100', { key });
    assert.ok(!sync.body.data.some((c: { id: string }) => c.id === candidateId), 'not in the updatedAfter walk either: the tombstone is the event');
    assertError(await call('POST', `/api/v1/hiring-flows/${flowId}/candidates`, { key, body: { candidateId } }), 404, 'not_found');
    assert.deepEqual((await call('GET', `/api/v1/hiring-flows/${flowId}/candidates`, { key })).body.data, []);
    assertError(await call('PATCH', `/api/v1/hiring-flows/${flowId}/candidates/${enrollmentId}`, { key, body: { status: 'withdrawn' } }), 404, 'not_found');
  });

  it('another organization\'s candidate is 404, and nothing happens to it', async () => {
    assertError(await call('DELETE', `/api/v1/candidates/${candidateId}`, { key: other.key }), 404, 'not_found');
    const mine = await call('POST', '/api/v1/candidates', { key: other.key, body: { email: `other-${tag}@example.com`, name: 'Not Erased' } });
    assertError(await call('DELETE', `/api/v1/candidates/${mine.body.data.id}`, { key: org.key }), 404, 'not_found');
    assert.equal((await call('GET', `/api/v1/candidates/${mine.body.data.id}`, { key: other.key })).status, 200);
    assertError(await call('DELETE', '/api/v1/candidates/cand_0000000000000000000000', { key: org.key }), 404, 'not_found');
  });

  it('the task succeeds, and the webhook and GET /events get candidate.erased with the id only', async () => {
    const done = await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data, (t) => t?.status === 'succeeded' || t?.status === 'failed', 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.equal(done.result.candidateId, candidateId);
    const delivered = await eventually(async () => receiver.of('candidate.erased'), (r) => r.length >= 1, 30_000);
    assert.deepEqual(delivered[0]!.event.data, { id: candidateId });
    const events = await call('GET', '/api/v1/events?type=candidate.erased', { key: org.key });
    assert.deepEqual(events.body.data.map((e: { data: unknown }) => e.data), [{ id: candidateId }]);
  });

  it('erasing twice is a no-op: 202 with the same task, and no second candidate.erased', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    const again = await call('DELETE', `/api/v1/candidates/${candidateId}`, { key: org.key });
    assert.equal(again.status, 202, again.text);
    assert.equal(again.body.data.id, task.id);
    assert.equal(again.body.data.status, 'succeeded');
    const events = await call('GET', '/api/v1/events?type=candidate.erased', { key: org.key });
    assert.equal(events.body.data.length, 1);
  });

  it('the stored events of the person keep their type and ids only, in the events list and for replays', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    const list = await call('GET', '/api/v1/events?limit=100', { key: org.key });
    const scheduledEvent = list.body.data.find((e: { type: string; data: { id?: string } }) => e.type === 'interview.scheduled' && e.data.id === interview.id);
    assert.deepEqual(scheduledEvent.data, { id: interview.id, candidate: { id: candidateId }, positionId: scheduledEvent.data.positionId, redacted: true });
    const enrolledEvent = list.body.data.find((e: { type: string }) => e.type === 'hiring_flow.candidate_enrolled');
    assert.equal(enrolledEvent.data.id, enrollmentId);
    assert.equal(enrolledEvent.data.redacted, true);
  });

  it('a stored task request that names the person keeps its kind, status and ids only', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    const row = (await db.query('select kind, status, input from integrations.tasks where id = $1', [namingTaskId])).rows[0];
    assert.deepEqual(row, { kind: 'job_description', status: 'succeeded', input: { candidateId, interview: { id: interview.id }, redacted: true } });
    const own = (await db.query('select input from integrations.tasks where id = $1', [task.id])).rows[0];
    assert.deepEqual(own.input, { candidateId }, 'the erasure task\'s own request (ids only) is left as it is');
  });

  it('counts and scores of the interview remain, as anonymous rows', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    const row = (await db.query(
      `select i.status, i.answers, e.overall_score, e.summary, e.review_decision, e.review_note from recruiting.interviews i join recruiting.evaluations e on e.interview_id = i.id where i.id = $1`,
      [interview.id],
    )).rows[0];
    assert.deepEqual(row, { status: 'completed', answers: null, overall_score: scoreBefore, summary: null, review_decision: 'advance', review_note: null });
    assert.equal((await db.query('select count(*)::int as n from recruiting.enrollments where id = $1', [enrollmentId])).rows[0].n, 1);
    // The record keeps its key and fingerprint until the purge (PRODUCT.md §6); the response is gone.
    assert.deepEqual((await db.query('select state, response_status, response_headers, response_body from gateway.idempotency_keys where idempotency_key = $1', [idemKey])).rows,
      [{ state: 'voided', response_status: null, response_headers: null, response_body: null }], 'the stored response of POST /interviews is gone');
  });

  it('an event of the person that a relay read before the scrub and hands in after it is stored redacted', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    // As recruiting's relay delivers it: the payload it read before the erasure, an event integrations has not stored yet.
    const late = { ...relayedEarly, id: newId(ID_PREFIXES.event) };
    const sink = integrationsEventSink(process.env['INTEGRATIONS_URL']!, new InternalTokenCache(testEnv().internalTokenKeys));
    await sink([late]);
    const stored = (await db.query('select payload from integrations.events where id = $1', [late.id])).rows[0].payload;
    assert.deepEqual(stored.data, { id: interview.id, candidate: { id: candidateId }, positionId: stored.data.positionId, redacted: true });
  });

  it("integrations' own events that name the person and reach the event store after the scrub are stored redacted; the erasure's own record keeps the id", async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    // One its publisher read before the scrub (above), and one written after it (an ATS event
    // that resolved to the person and finished after the erasure began).
    const writtenLate: PublishedEvent = {
      id: newId(ID_PREFIXES.event),
      type: 'ats_event.processed',
      createdAt: new Date().toISOString(),
      data: { id: `atsev_late_${tag}`, source: 'greenhouse', type: 'candidate.updated', status: 'processed', candidateId, note: `About ${person.name}` },
      organizationId: org.organization.id,
    };
    const integrations = createDb<IntegrationsDB>(createPool({ url: testEnv().databaseUrl, applicationName: 'erasure-test', max: 1 }));
    try {
      await ingestOwnEvents(integrations, { taskQueue: process.env['TEMPORAL_TASK_QUEUE'] ?? 'hireloop', breakerFailures: 5, leaseMs: 30_000 }, [ownEarly, writtenLate]);
    } finally {
      await integrations.destroy();
    }
    await db.query('update integrations.outbox set published_at = now(), lease_until = null where id = $1', [ownEarly.id]);
    const stored = async (id: string) => (await db.query('select payload from integrations.events where id = $1', [id])).rows[0].payload.data;
    assert.deepEqual(await stored(ownEarly.id), { id: namingTaskId, candidateId, redacted: true });
    assert.deepEqual(await stored(writtenLate.id), { id: `atsev_late_${tag}`, candidateId, redacted: true });
    // The erasure's own record, written after the tombstones, keeps what it says: candidate.erased names the id.
    const erasedEvents = (await db.query(`select payload from integrations.events where organization_id = $1 and type = 'candidate.erased'`, [org.organization.id])).rows;
    assert.deepEqual(erasedEvents.map((r) => r.payload.data), [{ id: candidateId }]);
  });

  it('the person appears nowhere: every table of every schema, the Temporal histories, events, webhook deliveries, the logs', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    assert.deepEqual(await tablesHolding(db, needles), [], 'tables still holding the person');

    const histories: string[] = [];
    for await (const wf of temporal.workflow.list({ query: `OrganizationId = '${org.organization.id}'` })) {
      const text = payloadTexts(await temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory()).join('\n').toLowerCase();
      histories.push(wf.workflowId);
      for (const needle of needles) assert.ok(!text.includes(needle.toLowerCase()), `the history of ${wf.workflowId} holds "${needle}"`);
    }
    assert.ok(histories.some((id) => id === `erase:${candidateId}`), `the erasure workflow is among ${histories.join(', ')}`);
    assert.ok(histories.some((id) => id === `evaluate:${interview.id}`));

    const events = JSON.stringify((await call('GET', '/api/v1/events?limit=100', { key: org.key })).body).toLowerCase();
    for (const needle of needles) assert.ok(!events.includes(needle.toLowerCase()), `GET /events holds "${needle}"`);
    const hook = (await call('GET', '/api/v1/webhooks', { key: org.key })).body.data[0];
    const attempts = JSON.stringify((await call('GET', `/api/v1/webhooks/${hook.id}/deliveries?limit=100`, { key: org.key })).body).toLowerCase();
    for (const needle of needles) assert.ok(!attempts.includes(needle.toLowerCase()), `the delivery log holds "${needle}"`);

    const logFile = process.env['TEST_DATA_DIR'] ? join(process.env['TEST_DATA_DIR'], 'stack.log') : null;
    if (logFile) {
      const logs = readFileSync(logFile, 'utf8').toLowerCase();
      for (const needle of needles) assert.ok(!logs.includes(needle.toLowerCase()), `the processes' logs hold "${needle}"`);
    }
  });

  it('a replay after the erasure delivers the redacted payloads', async () => {
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task.id}`, { key: org.key })).body.data?.status, (s) => s === 'succeeded', 60_000);
    const hook = (await call('GET', '/api/v1/webhooks', { key: org.key })).body.data[0];
    const before = receiver.received.length;
    const replay = await call('POST', `/api/v1/webhooks/${hook.id}/replay`, { key: org.key, body: { since: new Date(Date.now() - 3_600_000).toISOString(), types: ['interview.scheduled'] } });
    assert.equal(replay.status, 202, replay.text);
    const replayed = await eventually(async () => receiver.received.slice(before).filter((r) => r.event.type === 'interview.scheduled'), (r) => r.length >= 1, 30_000);
    assert.deepEqual(replayed[0]!.event.data, { id: interview.id, candidate: { id: candidateId }, positionId: replayed[0]!.event.data.positionId, redacted: true });
    for (const needle of [person.name, person.email]) assert.ok(!replayed[0]!.body.includes(needle));
  });
});
