import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createServiceClient, InternalTokenCache, procedureScope, SYSTEM_SUBJECT } from '@hireloop/platform';
import { SCOPES } from '@hireloop/contracts';
import type { RecruitingRouter } from '@hireloop/recruiting';
import { call, eventually, newOrganizationWithKey, testEnv, testRecruiting } from '@hireloop/devstack/testing';
import { unique } from './api-assertions.js';
import { newPosition, schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';
import { startReceiver } from './webhook-receiver.js';

// Issue 8 item 4 and CLARIFICATIONS "Idempotency that survives a gateway crash", for every POST
// that writes: the owning service records the forwarded scope with its write, so a retry whose
// gateway record is gone (the gateway died after the service committed, before it stored the
// response) gets the original result from the service and nothing is written twice. The crash is
// simulated as in idempotency.test.ts: the gateway's record is deleted between the two requests.

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;

let db: pg.Client;
let org: Org;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
  org = await newOrganizationWithKey(['read', 'write', 'admin']);
});
after(() => db.end());

const count = async (query: string, params: unknown[]) => Number((await db.query<{ n: string }>(`select count(*) as n from (${query}) q`, params)).rows[0]!.n);

/**
 * POSTs once with an Idempotency-Key, forgets the gateway's record of it, and POSTs again: the
 * retry must be answered by the service (no Idempotent-Replayed) with the first status.
 */
async function retriedAfterCrash(path: string, body: unknown) {
  const headers = { 'idempotency-key': `crash-${unique()}` };
  const first = await call('POST', path, { key: org.key, body, headers });
  assert.ok(first.status < 300, `${path}: ${first.status} ${first.text}`);
  const forgotten = await db.query('delete from gateway.idempotency_keys where api_key_id = $1 and idempotency_key = $2', [org.keyId, headers['idempotency-key']]);
  assert.equal(forgotten.rowCount, 1, `${path}: the gateway had recorded the first request`);
  const retry = await call('POST', path, { key: org.key, body, headers });
  assert.equal(retry.status, first.status, `${path}: ${retry.text}`);
  assert.equal(retry.headers.get('idempotent-replayed'), null, `${path}: answered by the service, not replayed by the gateway`);
  return { first: first.body.data, retry: retry.body.data };
}

describe('the forwarded scope is named per procedure', () => {
  /** The recruiting service as the gateway calls it, with a forwarded scope of our choosing. */
  const recruitingWithScope = (organizationId: string, idempotencyScope: string) =>
    createServiceClient<RecruitingRouter>(testEnv().recruitingUrl, new InternalTokenCache(testEnv().internalTokenKeys))({
      auth: { sub: SYSTEM_SUBJECT, org: organizationId, scopes: [...SCOPES] },
      idempotencyScope,
    });

  it('one scope sent to two procedures makes two writes; each procedure replays only its own', async () => {
    const scope = randomBytes(32).toString('hex');
    const recruiting = recruitingWithScope(org.organization.id, scope);
    const tag = unique();
    const candidate = await recruiting.candidates.create.mutate({ email: `scope-${tag}@example.com`, name: 'Scope Test' });
    const position = await recruiting.positions.create.mutate({ title: `Scope ${tag}`, interviewQuestions: [] });
    assert.notEqual(position.id, candidate.id, 'positions.create made its own position, not a replay of candidates.create');
    assert.equal(await count('select 1 from recruiting.positions where title = $1', [`Scope ${tag}`]), 1);

    const again = await recruiting.positions.create.mutate({ title: `Scope ${tag}`, interviewQuestions: [] });
    assert.equal(again.id, position.id, 'the same procedure with the same scope replays');
    assert.equal((await recruiting.candidates.create.mutate({ email: `scope-${tag}@example.com`, name: 'Scope Test' })).id, candidate.id);

    const { rows } = await db.query<{ scope: string; resource_id: string }>('select scope, resource_id from recruiting.idempotency_records where resource_id = any($1) order by resource_id', [[candidate.id, position.id]]);
    assert.deepEqual(
      rows.map((r) => [r.resource_id, r.scope]).sort(),
      [[candidate.id, procedureScope(scope, 'candidates.create')], [position.id, procedureScope(scope, 'positions.create')]].sort(),
      'each record is under the scope named for its procedure, never the forwarded one',
    );
  });
});

describe('a retry after a gateway crash writes once and returns the original result', () => {
  it('POST /hiring-flows/{id}/candidates: one enrollment, one event, not 409 already_enrolled', async () => {
    const flow = await testRecruiting().forOrganization(org.organization.id).flows.create.mutate({ name: `Flow ${unique()}`, stages: [{ name: 'Screen', kind: 'screen' }] });
    const email = `enroll-${unique()}@example.com`;
    const { first, retry } = await retriedAfterCrash(`/api/v1/hiring-flows/${flow.id}/candidates`, { candidate: { email, name: 'Enid Roll' } });
    assert.deepEqual(retry, first);
    assert.equal(await count('select 1 from recruiting.enrollments where flow_id = $1', [flow.id]), 1, 'one enrollment');
    assert.equal(await count(`select 1 from recruiting.outbox where type = 'hiring_flow.candidate_enrolled' and payload->'data'->>'id' = $1`, [first.id]), 1, 'one event');
  });

  it('POST /ats/events: the retry answers `accepted` as the first did, not `duplicate`', async () => {
    const body = { source: 'greenhouse', eventId: `evt-${unique()}`, type: 'application.created', occurredAt: new Date().toISOString(), candidate: { externalId: `c-${unique()}`, email: `ats-${unique()}@example.com`, name: 'At Sevent' }, job: { externalId: `j-${unique()}`, title: 'ATS job' } };
    const { first, retry } = await retriedAfterCrash('/api/v1/ats/events', body);
    assert.deepEqual(first.status, 'accepted');
    assert.deepEqual(retry, first);
    assert.equal(await count('select 1 from integrations.ats_events where organization_id = $1 and event_id = $2', [org.organization.id, body.eventId]), 1);
  });

  it('POST /ai/job-description: one task, one workflow start', async () => {
    const { first, retry } = await retriedAfterCrash('/api/v1/ai/job-description', { title: `Writer ${unique()}` });
    assert.equal(retry.id, first.id);
    assert.equal(retry.kind, 'job_description');
    assert.equal(await count(`select 1 from integrations.tasks where organization_id = $1 and kind = 'job_description'`, [org.organization.id]), 1, 'one task');
    assert.equal(await count(`select 1 from integrations.workflow_outbox where workflow_id = $1`, [`jd:${first.id}`]), 1, 'one start');
  });

  it('the webhook routes: register, test, retry a delivery, replay, rotate the secret', async () => {
    const receiver = await startReceiver();
    try {
      const created = await retriedAfterCrash('/api/v1/webhooks', { url: receiver.url, events: ['*'] });
      const hook = created.first as { id: string; secret: string; url: string };
      assert.equal(created.retry.id, hook.id);
      assert.equal(created.retry.secret, hook.secret, 'the retry carries the secret the webhook signs with');
      assert.equal(created.retry.url, hook.url);
      assert.equal(await count('select 1 from integrations.webhooks where organization_id = $1', [org.organization.id]), 1, 'one webhook');
      const pings = () => count(`select 1 from integrations.events where organization_id = $1 and type = 'webhook.ping'`, [org.organization.id]);
      assert.equal(await pings(), 1, 'one registration ping');

      const tested = await retriedAfterCrash(`/api/v1/webhooks/${hook.id}/test`, {});
      assert.deepEqual(tested.retry, tested.first);
      assert.equal(await pings(), 2, 'one test ping more');

      const audited = (action: string) => count(`select 1 from integrations.audit_events where organization_id = $1 and action = $2`, [org.organization.id, action]);
      const delivery = (await call('GET', `/api/v1/webhooks/${hook.id}/deliveries`, { key: org.key })).body.data[0] as { id: string };
      const retried = await retriedAfterCrash(`/api/v1/webhooks/${hook.id}/deliveries/${delivery.id}/retry`, {});
      assert.equal(retried.retry.id, delivery.id);
      assert.equal(retried.first.id, delivery.id);
      assert.equal(await audited('webhook.delivery_retried'), 1, 'retried once');

      // An event to replay: a candidate created after the webhook.
      await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `replayed-${unique()}@example.com`, name: 'Re Play' } });
      await eventually(() => count(`select 1 from integrations.events where organization_id = $1 and type = 'candidate.created'`, [org.organization.id]), (n) => n > 0, 30_000);
      const replayed = await retriedAfterCrash(`/api/v1/webhooks/${hook.id}/replay`, { since: new Date(Date.now() - 3600_000).toISOString() });
      assert.ok(replayed.first.count >= 1, JSON.stringify(replayed.first));
      assert.deepEqual(replayed.retry, replayed.first);
      assert.equal(await audited('webhook.replayed'), 1, 'replayed once');

      const rotated = await retriedAfterCrash(`/api/v1/webhooks/${hook.id}/rotate-secret`, {});
      assert.notEqual(rotated.first.secret, hook.secret);
      assert.equal(rotated.retry.secret, rotated.first.secret, 'the retry answers the secret the first rotation made');
      assert.equal(await audited('webhook.secret_rotated'), 1, 'rotated once');
      const { rows } = await db.query<{ previous: string | null }>('select previous_secret_sealed as previous from integrations.webhooks where id = $1', [hook.id]);
      assert.ok(rows[0]!.previous, 'the registration secret still signs beside the new one: no second rotation pushed it out');
    } finally {
      await receiver.close();
    }
  });

  it('POST /interviews/{id}/evaluation/review: one review, one evaluation.reviewed', async () => {
    const interview = await schedule(org.key, (await newPosition(org.key)).id);
    await startInvite(tokenOf(interview.inviteUrl));
    await submitInvite(tokenOf(interview.inviteUrl), ['Because of the product.', 'A race in a cache.']);
    const done = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const { first, retry } = await retriedAfterCrash(`/api/v1/interviews/${interview.id}/evaluation/review`, { decision: 'advance', note: 'Strong.' });
    assert.deepEqual(retry, first);
    assert.equal(await count(`select 1 from recruiting.outbox where type = 'evaluation.reviewed' and payload->'data'->>'interviewId' = $1`, [interview.id]), 1, 'one event');
    assert.equal(await count(`select 1 from recruiting.audit_events where action = 'evaluation.reviewed' and resource_id = $1`, [interview.id]), 1, 'one audit row');
  });
});
