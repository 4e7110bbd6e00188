import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { newKeyRingSetting } from '@hireloop/platform';
import { call, eventually, newOrganizationWithKey, startExtraGateway, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { unique } from './api-assertions.js';
import { tablesHolding } from './erasure-scan.js';
import { newPosition } from './interview-helpers.js';
import { payloadTexts } from './temporal-history.js';

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
type Extra = Awaited<ReturnType<typeof startExtraProcess>>;

/**
 * The `candidate_erasure` task when things go wrong (issue 11): the worker SIGKILLed in the middle
 * of the workflow, and an attempt that fails for good and is run again by a repeated DELETE. Both
 * end like an uninterrupted run: the scan of every schema and the workflows' histories find the
 * person nowhere, and `candidate.erased` is emitted once.
 *
 * The erasures run on a task queue of this file's own (a recruiting, an integrations and a gateway
 * of their own, on the shared database), so its workers are the only ones that run them.
 */
describe('erasure: a restarted worker, and a failed attempt run again', () => {
  const queue = `erase-recovery-${process.pid}`;
  const sharedKeys = testEnv().internalTokenKeys;
  // A key only integrations accepts besides the shared ones: a worker that signs with it is
  // refused by recruiting (a key rotation rolled out to the worker before recruiting).
  const rotatedKey = newKeyRingSetting('secret', 'rotated');
  let org: Org;
  let db: pg.Client;
  let connection: Connection;
  let temporal: Client;
  let recruiting: Extra;
  let integrations: Extra;
  let gateway: Extra;
  const workers: Extra[] = [];
  /** A worker left running by one test for the next (each start bundles the workflows: slow). */
  let running: Extra | undefined;

  before(async () => {
    org = await newOrganizationWithKey(['read', 'write', 'admin']);
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
    // Recruiting waits on a row lock as long as the test holds it (the default bound is 5 s).
    recruiting = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', { TEMPORAL_TASK_QUEUE: queue, DATABASE_STATEMENT_TIMEOUT_MS: '120000' });
    integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', {
      TEMPORAL_TASK_QUEUE: queue,
      RECRUITING_URL: recruiting.url,
      INTERNAL_TOKEN_KEYS: `${sharedKeys},${rotatedKey}`,
    });
    gateway = await startExtraGateway({ RECRUITING_URL: recruiting.url, INTEGRATIONS_URL: integrations.url });
  });

  after(async () => {
    for (const worker of workers) await worker.child.stop();
    for (const process of [gateway, integrations, recruiting]) await process?.child.stop();
    await db.end();
    await connection.close();
  });

  function startWorker(env: Record<string, string> = {}) {
    return startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { TEMPORAL_TASK_QUEUE: queue, RECRUITING_URL: recruiting.url, INTEGRATIONS_URL: integrations.url, ...env }).then((w) => {
      workers.push(w);
      return w;
    });
  }

  /** A person with copies in recruiting (candidate, interview), integrations (ATS event, stored events) and the gateway (a stored idempotent response). */
  async function newPerson() {
    const tag = unique();
    const person = { name: `Restartia Erasable ${tag}`, email: `erase-recovery-${tag}@example.com` };
    const ats = await call('POST', '/api/v1/ats/events', {
      key: org.key,
      body: { source: 'greenhouse', eventId: `ev-${tag}`, type: 'candidate.created', occurredAt: new Date().toISOString(), candidate: { externalId: `gh-${tag}`, email: person.email, name: person.name } },
    });
    assert.equal(ats.status, 202, ats.text);
    const found = await eventually(() => call('GET', `/api/v1/candidates?email=${encodeURIComponent(person.email)}`, { key: org.key }), (r) => r.body.data?.length === 1, 30_000);
    const candidateId: string = found.body.data[0].id;
    const position = await newPosition(org.key);
    const scheduled = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email: person.email } }, headers: { 'idempotency-key': `recovery-${tag}` } });
    assert.equal(scheduled.status, 201, scheduled.text);
    const needles = [person.name, person.email];
    const holding = await eventually(() => tablesHolding(db, needles), (t) => t.includes('integrations.events'), 30_000);
    for (const table of ['recruiting.candidates', 'integrations.events', 'integrations.ats_events']) {
      assert.ok(holding.includes(table), `${table} holds the person before the erasure (found in ${holding.join(', ')})`);
    }
    return { candidateId, interviewId: scheduled.body.data.id as string, needles };
  }

  const erase = (candidateId: string) => call('DELETE', `/api/v1/candidates/${candidateId}`, { key: org.key, baseUrl: gateway.url });
  const getTask = async (id: string) => (await call('GET', `/api/v1/tasks/${id}`, { key: org.key })).body.data;
  const finalTask = (id: string) => eventually(() => getTask(id), (t) => t?.status === 'succeeded' || t?.status === 'failed', 120_000);

  /** What an uninterrupted run leaves: the person nowhere in the database or the erasure's histories, and one candidate.erased. */
  async function assertErasedOnce(candidateId: string, needles: string[]) {
    assert.deepEqual(await tablesHolding(db, needles), [], 'tables still holding the person');
    const events = await call('GET', '/api/v1/events?type=candidate.erased&limit=100', { key: org.key });
    assert.deepEqual(events.body.data.filter((e: { data: { id: string } }) => e.data.id === candidateId).map((e: { data: unknown }) => e.data), [{ id: candidateId }]);
    let runs = 0;
    for await (const wf of temporal.workflow.list({ query: `OrganizationId = '${org.organization.id}' AND Kind = 'candidate_erasure'` })) {
      if (!wf.workflowId.startsWith(`erase:${candidateId}`)) continue;
      runs++;
      const text = payloadTexts(await temporal.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory()).join('\n').toLowerCase();
      for (const needle of needles) assert.ok(!text.includes(needle.toLowerCase()), `the history of ${wf.workflowId} holds "${needle}"`);
    }
    assert.ok(runs >= 1, 'the erasure workflows were looked at');
  }

  it('a repeated DELETE after a failed attempt starts a new task that completes; while it is queued or after it succeeded, DELETE answers with it', async () => {
    const { candidateId, needles } = await newPerson();
    // A worker that signs with a key recruiting does not accept: the recruiting step is refused, the attempt fails.
    const badWorker = await startWorker({ INTERNAL_TOKEN_KEYS: `${rotatedKey},${sharedKeys}` });
    const first = await erase(candidateId);
    assert.equal(first.status, 202, first.text);
    const failed = await finalTask(first.body.data.id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'unauthenticated');
    await badWorker.child.stop();

    // Run again: a new task, queued (no worker runs it yet); the failed one stays failed.
    const second = await erase(candidateId);
    assert.equal(second.status, 202, second.text);
    assert.notEqual(second.body.data.id, failed.id);
    assert.equal(second.body.data.kind, 'candidate_erasure');
    assert.equal(second.body.data.status, 'queued');
    assert.equal(second.headers.get('location'), `/api/v1/tasks/${second.body.data.id}`);
    const whileQueued = await erase(candidateId);
    assert.equal(whileQueued.body.data.id, second.body.data.id, 'no second attempt while one is queued');
    assert.equal((await getTask(failed.id)).status, 'failed');

    running = await startWorker();
    const done = await finalTask(second.body.data.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    const after = await erase(candidateId);
    assert.equal(after.status, 202);
    assert.equal(after.body.data.id, second.body.data.id, 'after success DELETE answers with the succeeded task');
    assert.equal(after.body.data.status, 'succeeded');
    await assertErasedOnce(candidateId, needles);
    const failedEvents = await call('GET', '/api/v1/events?type=task.failed&limit=100', { key: org.key });
    assert.equal(failedEvents.body.data.filter((e: { data: { id: string } }) => e.data.id === failed.id).length, 1);
  });
  it('completes after the worker is SIGKILLed between its steps, with the same result as an uninterrupted run', async () => {
    const { candidateId, interviewId, needles } = await newPerson();
    const worker = running ?? (await startWorker());
    // Hold the interview's row: recruiting's scrub step (it rewrites the interview) waits on it;
    // the DELETE does not touch it.
    const lock = new pg.Client({ connectionString: testEnv().databaseUrl });
    await lock.connect();
    let taskId: string;
    try {
      await lock.query('begin');
      await lock.query('select 1 from recruiting.interviews where id = $1 for update', [interviewId]);
      const lockPid = (await lock.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const erased = await erase(candidateId);
      assert.equal(erased.status, 202, erased.text);
      taskId = erased.body.data.id;
      await eventually(async () => (await db.query('select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [lockPid])).rows[0].n, (n) => n > 0, 60_000);
      assert.equal((await getTask(taskId)).status, 'running', 'the first step ran');
      // The worker dies while the step is in recruiting's hands; then recruiting finishes it.
      worker.child.process.kill('SIGKILL');
      await worker.child.exited;
      await lock.query('commit');
    } finally {
      await lock.end();
    }

    // Between the steps: recruiting has scrubbed the interview, integrations still holds the person.
    await eventually(async () => (await db.query('select title from recruiting.interviews where id = $1', [interviewId])).rows[0].title, (t) => t === 'Erased', 30_000);
    assert.ok((await tablesHolding(db, needles)).includes('integrations.events'), 'integrations is not scrubbed yet');
    assert.equal((await getTask(taskId)).status, 'running');

    await startWorker();
    const done = await finalTask(taskId);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    await assertErasedOnce(candidateId, needles);
    // The recruiting step whose result died with the worker ran again (it is idempotent).
    const history = await temporal.workflow.getHandle(`erase:${candidateId}`).fetchHistory();
    const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt ?? 1);
    assert.ok(attempts.some((a) => a >= 2), `an activity ran a second time (attempts ${attempts.join(', ')})`);
  });

  /** Stops the workers earlier tests left running: the next test's worker must be the only one. */
  async function stopWorkers() {
    for (const worker of workers.splice(0)) await worker.child.stop();
    running = undefined;
  }

  /** One more interview of the person (so their ids span several pages of a small ERASURE_PAGE_SIZE). */
  async function scheduleAnother(email: string) {
    const position = await newPosition(org.key);
    const scheduled = await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email } } });
    assert.equal(scheduled.status, 201, scheduled.text);
  }

  it('a refused first step is retried until it succeeds, and the task says so meanwhile; the ids are paged through', async () => {
    await stopWorkers();
    const { candidateId, needles } = await newPerson();
    await scheduleAnother(needles[1]!);
    await scheduleAnother(needles[1]!);
    // A worker that signs with a key no service accepts: integrations refuses the first step.
    const stranger = await startWorker({ INTERNAL_TOKEN_KEYS: newKeyRingSetting('secret', 'stranger') });
    const erased = await erase(candidateId);
    assert.equal(erased.status, 202, erased.text);
    const retrying = await eventually(() => getTask(erased.body.data.id), (t) => t?.retrying?.attempt >= 2, 60_000);
    assert.equal(retrying.status, 'queued');
    assert.equal(retrying.retrying.step, 'start');
    assert.equal(retrying.retrying.lastError.code, 'unauthenticated');
    assert.match(retrying.retrying.lastError.message, /retried until it succeeds/);
    await stranger.child.stop();

    // A worker that is let in, and pages through the person's ids one at a time.
    await startWorker({ ERASURE_PAGE_SIZE: '1' });
    const done = await finalTask(erased.body.data.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.equal(done.retrying, null);
    await assertErasedOnce(candidateId, needles);
    const interviews = (await db.query('select title from recruiting.interviews where candidate_id = $1', [candidateId])).rows;
    assert.deepEqual(interviews.map((r) => r.title), ['Erased', 'Erased', 'Erased']);
  });

  it('a transient database error in a step is retried (the task says so) and the erasure completes', async () => {
    const { candidateId, needles } = await newPerson();
    // Hold one of the person's stored events: integrations' scrub waits on it past its statement timeout (a 503).
    const lock = new pg.Client({ connectionString: testEnv().databaseUrl });
    await lock.connect();
    let taskId: string;
    try {
      await lock.query('begin');
      const held = await lock.query(`select id from integrations.events where organization_id = $1 and payload::text like $2 for update`, [org.organization.id, `%"${candidateId}"%`]);
      assert.ok(held.rowCount! > 0);
      const erased = await erase(candidateId);
      assert.equal(erased.status, 202, erased.text);
      taskId = erased.body.data.id;
      const retrying = await eventually(() => getTask(taskId), (t) => t?.retrying?.step === 'integrations', 60_000);
      assert.equal(retrying.status, 'running');
      assert.equal(retrying.retrying.lastError.code, 'service_unavailable');
      await lock.query('commit');
    } finally {
      await lock.end();
    }
    const done = await finalTask(taskId);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    await assertErasedOnce(candidateId, needles);
  });

  it('a permanent database error in a step fails the task with a reason an operator can act on (no SQL); fixed, a repeated DELETE completes', async () => {
    const { candidateId, needles } = await newPerson();
    // A constraint that refuses this person's events once redacted: integrations' scrub fails for good (23514).
    const constraint = `erasure_refused_${process.pid}`;
    await db.query(
      `alter table integrations.events add constraint ${constraint} check (not (payload::text like '%"${candidateId}"%' and coalesce((payload -> 'data' ->> 'redacted')::boolean, false))) not valid`,
    );
    let failedId: string;
    try {
      const erased = await erase(candidateId);
      assert.equal(erased.status, 202, erased.text);
      failedId = erased.body.data.id;
      const failed = await finalTask(failedId);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.error.code, 'erasure_step_failed');
      assert.match(failed.error.message, new RegExp(`SQLSTATE 23514, constraint ${constraint}, table integrations\\.events`));
      assert.match(failed.error.message, /DELETE \/api\/v1\/candidates\/cand_\w+ again/);
      assert.doesNotMatch(failed.error.message, /\b(select|update|insert|where|violates)\b/i, 'no SQL nor the database\'s own message');
    } finally {
      await db.query(`alter table integrations.events drop constraint if exists ${constraint}`);
    }
    const again = await erase(candidateId);
    assert.equal(again.status, 202, again.text);
    assert.notEqual(again.body.data.id, failedId);
    const done = await finalTask(again.body.data.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    await assertErasedOnce(candidateId, needles);
  });

});
