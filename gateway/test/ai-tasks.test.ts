import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { call, eventually, newOrganizationWithKey, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { startOpenAiTestServer } from '@hireloop/devstack/openai-test-server';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { newPosition } from './interview-helpers.js';
import { assertValidation, unique } from './api-assertions.js';
import { payloadTexts } from './temporal-history.js';

// PRODUCT.md §7 Task, §8 task.succeeded / task.failed; issue 4 item 4 (AI job description).

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
// Polling GET /tasks/{id} makes many requests: a key with room for them.
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write'], 6000);

let db: pg.Client;
before(async () => {
  db = new pg.Client({ connectionString: testEnv().databaseUrl });
  await db.connect();
});
after(() => db.end());

/** The task's events in the integrations outbox, oldest first. */
const taskEvents = async (orgId: string, taskId: string) =>
  (
    await db.query<{ type: string; payload: { id: string; type: string; createdAt: string; data: Record<string, any> } }>(
      `select type, payload from integrations.outbox where organization_id = $1 and payload->'data'->>'id' = $2 order by created_at, id`,
      [orgId, taskId],
    )
  ).rows;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function postJobDescription(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/api/v1/ai/job-description', { key, body });
  assert.equal(res.status, 202, res.text);
  return res;
}

/** Polls GET /api/v1/tasks/{id} until the task has ended. */
const finalTask = (key: string, id: string, timeoutMs = 60_000) =>
  eventually(
    async () => (await call('GET', `/api/v1/tasks/${id}`, { key })).body.data,
    (t) => t?.status === 'succeeded' || t?.status === 'failed',
    timeoutMs,
  );


describe('POST /api/v1/ai/job-description (offline provider)', () => {
  let org: Org;
  before(async () => {
    org = await newOrg();
  });

  it('answers 202 with a queued task and Location, then GET shows it succeeded with the offline result', async () => {
    const res = await postJobDescription(org.key, { title: 'Site Reliability Engineer', seniority: 'Senior', location: 'Berlin', skills: ['Kubernetes', 'Go'], tone: 'friendly', language: 'de-CH' });
    assert.deepEqual(Object.keys(res.body), ['data']);
    const task = res.body.data;
    assert.match(task.id, /^task_/);
    assert.equal(res.headers.get('location'), `/api/v1/tasks/${task.id}`);
    assert.equal(task.kind, 'job_description');
    assert.ok(['queued', 'running'].includes(task.status), task.status);
    assert.equal(task.result, null);
    assert.equal(task.error, null);
    assert.equal(task.completedAt, null);
    assert.match(task.createdAt, ISO_UTC);
    assert.match(task.updatedAt, ISO_UTC);

    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.id, task.id);
    assert.equal(done.kind, 'job_description');
    assert.equal(done.error, null);
    assert.match(done.completedAt, ISO_UTC);
    assert.ok(Date.parse(done.completedAt) >= Date.parse(done.createdAt));
    const result = done.result;
    assert.equal(result.model, 'offline');
    assert.equal(result.title, 'Senior Site Reliability Engineer');
    assert.equal(typeof result.summary, 'string');
    assert.match(result.summary, /Berlin/);
    for (const list of ['responsibilities', 'requirements', 'niceToHave']) assert.ok(Array.isArray(result[list]), list);
    assert.ok(result.responsibilities.length > 0);
    assert.ok(result.requirements.some((r: string) => r.includes('Kubernetes')));
    assert.ok(result.requirements.some((r: string) => r.includes('Go')));
    assert.match(result.markdown, /^# Senior Site Reliability Engineer/);
  });

  it('the GET response is the task envelope and nothing else', async () => {
    const created = (await postJobDescription(org.key, { title: 'Data Analyst' })).body.data;
    await finalTask(org.key, created.id);
    const res = await call('GET', `/api/v1/tasks/${created.id}`, { key: org.key });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.equal(res.body.data.id, created.id);
    assert.equal(res.body.data.createdAt, created.createdAt);
  });

  it('emits task.succeeded into the integrations outbox, once, with the task', async () => {
    const created = (await postJobDescription(org.key, { title: 'Product Designer' })).body.data;
    const done = await finalTask(org.key, created.id);
    assert.equal(done.status, 'succeeded');
    const events = await eventually(() => taskEvents(org.organization.id, created.id), (rows) => rows.length > 0, 10_000);
    assert.deepEqual(events.map((e) => e.type), ['task.succeeded']);
    const payload = events[0]!.payload;
    assert.match(payload.id, /^evt_/);
    assert.equal(payload.type, 'task.succeeded');
    assert.equal(payload.data.id, created.id);
    assert.equal(payload.data.status, 'succeeded');
    assert.equal(payload.data.result.model, 'offline');
    assert.equal(payload.data.result.markdown, done.result.markdown);
  });

  it('422 for every invalid field', async () => {
    const good = { title: 'Backend Engineer' };
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'title'],
      [{ ...good, title: '' }, 'title'],
      [{ ...good, title: '   ' }, 'title'],
      [{ ...good, title: 'x'.repeat(201) }, 'title'],
      [{ ...good, tone: 'sarcastic' }, 'tone'],
      [{ ...good, language: 'english!' }, 'language'],
      [{ ...good, language: 'e' }, 'language'],
      [{ ...good, language: 'en_US' }, 'language'],
      [{ ...good, colour: 'blue' }, 'colour'],
      [{ ...good, skills: Array.from({ length: 31 }, (_, i) => `skill ${i}`) }, 'skills'],
      [{ ...good, skills: 'TypeScript' }, 'skills'],
      [{ ...good, positionId: 'cand_0000000000000000000000' }, 'positionId'],
    ];
    for (const [body, path] of cases) {
      const res = await call('POST', '/api/v1/ai/job-description', { key: org.key, body });
      assertValidation(res, path);
    }
  });

  it('accepts exactly 30 skills and a region subtag language', async () => {
    const res = await postJobDescription(org.key, { title: 'Generalist', skills: Array.from({ length: 30 }, (_, i) => `skill ${i}`), language: 'pt-BR', tone: 'formal' });
    const done = await finalTask(org.key, res.body.data.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.result.requirements.length, 30);
  });

  it('the longest accepted input makes a draft: the result fits its own limits (offline provider)', async () => {
    const body = { title: 'T'.repeat(200), seniority: 'x'.repeat(100), location: 'L'.repeat(200), skills: Array.from({ length: 30 }, () => 's'.repeat(100)) };
    const done = await finalTask(org.key, (await postJobDescription(org.key, body)).body.data.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error));
    assert.equal(done.result.title, body.title, 'the seniority is left out when the two would not fit');
    // A title that already says its seniority does not say it twice.
    const senior = await finalTask(org.key, (await postJobDescription(org.key, { title: 'Senior Backend Engineer', seniority: 'senior' })).body.data.id);
    assert.equal(senior.result.title, 'Senior Backend Engineer');
  });

  it('404 for an unknown positionId, and no task is made', async () => {
    const before = (await db.query(`select count(*)::int as n from integrations.tasks where organization_id = $1`, [org.organization.id])).rows[0].n;
    const res = await call('POST', '/api/v1/ai/job-description', { key: org.key, body: { title: 'Ghost', positionId: 'pos_0000000000000000000000' } });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.code, 'not_found');
    const after = (await db.query(`select count(*)::int as n from integrations.tasks where organization_id = $1`, [org.organization.id])).rows[0].n;
    assert.equal(after, before);
  });

  it('404 for another organization\'s position', async () => {
    const other = await newOrg();
    const position = await newPosition(other.key);
    const res = await call('POST', '/api/v1/ai/job-description', { key: org.key, body: { title: 'Spy', positionId: position.id } });
    assert.equal(res.status, 404, res.text);
    assert.equal(res.body.error.code, 'not_found');
  });

  it('404 for an unknown task and for another organization\'s task; 422 for a malformed id', async () => {
    const created = (await postJobDescription(org.key, { title: 'Copywriter' })).body.data;
    const other = await newOrg();
    const foreign = await call('GET', `/api/v1/tasks/${created.id}`, { key: other.key });
    assert.equal(foreign.status, 404, foreign.text);
    assert.equal(foreign.body.error.code, 'not_found');
    assert.ok(!foreign.text.includes('Copywriter'));
    const unknown = await call('GET', '/api/v1/tasks/task_0000000000000000000000', { key: org.key });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'not_found');
    const malformed = await call('GET', '/api/v1/tasks/pos_0000000000000000000000', { key: org.key });
    assert.equal(malformed.status, 422, malformed.text);
  });

  it('needs the write scope to create and the read scope to poll', async () => {
    const readOnly = await newOrganizationWithKey(['read']);
    const denied = await call('POST', '/api/v1/ai/job-description', { key: readOnly.key, body: { title: 'Nope' } });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.body.error.code, 'insufficient_scope');
    const missing = await call('POST', '/api/v1/ai/job-description', { body: { title: 'Nope' } });
    assert.equal(missing.status, 401, missing.text);
  });

  it('a succeeded task made for a position is applied to it through the integrations router', async () => {
    const position = await newPosition(org.key, { title: 'Platform Engineer' });
    const created = (await postJobDescription(org.key, { title: 'Platform Engineer', positionId: position.id })).body.data;
    assert.equal(created.positionId, position.id);
    const done = await finalTask(org.key, created.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    // Nothing is written to the position until the task is applied.
    const untouched = await call('GET', `/api/v1/positions/${position.id}`, { key: org.key });
    assert.notEqual(untouched.body.data.description, done.result.markdown);

    const integrations = createIntegrationsClient(process.env['INTEGRATIONS_URL']!, testEnv().internalTokenKeys).forOrganization(org.organization.id);
    const applied = await integrations.tasks.applyToPosition.mutate({ id: created.id });
    assert.equal(applied.id, position.id);
    assert.equal(applied.description, done.result.markdown);
    const got = await call('GET', `/api/v1/positions/${position.id}`, { key: org.key });
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.data.description, done.result.markdown);
    assert.equal(got.body.data.title, 'Platform Engineer');
  });

  it('a task without a position, or of another organization, cannot be applied', async () => {
    const created = (await postJobDescription(org.key, { title: 'Nomad' })).body.data;
    await finalTask(org.key, created.id);
    const url = process.env['INTEGRATIONS_URL']!;
    const secret = testEnv().internalTokenKeys;
    await assert.rejects(createIntegrationsClient(url, secret).forOrganization(org.organization.id).tasks.applyToPosition.mutate({ id: created.id }), /not made for a position/);
    const other = await newOrg();
    await assert.rejects(createIntegrationsClient(url, secret).forOrganization(other.organization.id).tasks.applyToPosition.mutate({ id: created.id }), /No task/);
  });
});

/**
 * The job-description workflow with the real openai SDK against a local OpenAI-compatible
 * server: an integrations service and a worker of their own, on their own task queue, share the
 * stack's Postgres and Temporal; tasks are read back through the stack's gateway.
 */
describe('AI job description with the openai SDK', () => {
  let ai: Awaited<ReturnType<typeof startOpenAiTestServer>>;
  let processes: Awaited<ReturnType<typeof startExtraProcess>>[] = [];
  let integrations: ReturnType<typeof createIntegrationsClient>;
  let org: Org;

  const scripted = {
    title: 'Staff Backend Engineer',
    summary: 'Lead the design of our payment platform.',
    responsibilities: ['Design services', 'Mentor engineers'],
    requirements: ['Ten years of backend work'],
    niceToHave: ['Payments experience'],
    markdown: '# Staff Backend Engineer\n\nLead the design of our payment platform.\n',
  };
  const fallback = {
    title: 'Fallback Engineer',
    summary: 'A fallback reply.',
    responsibilities: ['Answer'],
    requirements: ['Be there'],
    niceToHave: [],
    markdown: '# Fallback Engineer\n',
  };

  before(async () => {
    ai = await startOpenAiTestServer(() => JSON.stringify(fallback));
    const queue = `openai-jd-test-${process.pid}`;
    const shared = { TEMPORAL_TASK_QUEUE: queue };
    const service = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', shared);
    processes.push(service);
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', {
      ...shared,
      INTEGRATIONS_URL: service.url,
      OPENAI_API_KEY: 'sk-test-jd-key',
      OPENAI_BASE_URL: ai.baseUrl,
      OPENAI_MODEL: 'test-jd-model-1',
    });
    processes.push(worker);
    integrations = createIntegrationsClient(service.url, testEnv().internalTokenKeys);
    org = await newOrg();
  });
  after(async () => {
    for (const p of processes) await p.child.stop();
    processes = [];
    await ai?.close();
  });

  const createTask = (marker: string, extra: { positionId?: string } = {}) =>
    integrations.forOrganization(org.organization.id).tasks.createJobDescription.mutate({ title: `Backend Engineer ${marker}`, skills: ['Postgres'], tone: 'formal', language: 'en', ...extra });

  it('succeeds with the provider\'s structured result, sent with the key and model from config', async () => {
    const marker = `jd-ok-${unique()}`;
    ai.script(marker, [{ content: JSON.stringify(scripted) }]);
    const task = await createTask(marker);
    assert.equal(task.status, 'queued');
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.deepEqual(done.result, { ...scripted, model: 'test-jd-model-1' });
    const requests = ai.requestsWith(marker);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.authorization, 'Bearer sk-test-jd-key');
    assert.equal(requests[0]!.body.model, 'test-jd-model-1');
    assert.ok(JSON.stringify(requests[0]!.body.response_format).includes('json_schema'));
    assert.ok(JSON.stringify(requests[0]!.body.messages).includes('Postgres'));
    const events = await eventually(() => taskEvents(org.organization.id, task.id), (rows) => rows.length > 0, 10_000);
    assert.deepEqual(events.map((e) => e.type), ['task.succeeded']);
    assert.equal(events[0]!.payload.data.result.model, 'test-jd-model-1');
  });

  it('the workflow takes ids only: its history holds neither the request sent nor the generated text', async () => {
    const marker = `jd-ids-${unique()}`;
    const skill = `Skill ${unique()}`;
    const generated = { ...scripted, summary: `Generated summary ${unique()}.`, markdown: `# Generated ${unique()}\n` };
    ai.script(marker, [{ content: JSON.stringify(generated) }]);
    const task = await integrations
      .forOrganization(org.organization.id)
      .tasks.createJobDescription.mutate({ title: `Backend Engineer ${marker}`, skills: [skill], location: `Town ${marker}`, tone: 'formal', language: 'en' });
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.result.summary, generated.summary);
    // The AI was asked with the request: it went from the task row to the provider, not through the history.
    assert.ok(JSON.stringify(ai.requestsWith(marker)[0]!.body.messages).includes(skill));

    const connection = await Connection.connect({ address: testEnv().temporalAddress });
    try {
      const history = await new Client({ connection }).workflow.getHandle(`jd:${task.id}`).fetchHistory();
      const activities = (history.events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType?.name] : []));
      assert.deepEqual(activities, ['markTaskRunning', 'writeAndSaveJobDescription']);
      const texts = payloadTexts(history).join('\n');
      assert.ok(texts.includes(task.id), 'the history holds the task id');
      for (const needle of [marker, skill, generated.summary, generated.markdown.trim(), scripted.responsibilities[0]!]) {
        assert.ok(!texts.includes(needle), `the history of jd:${task.id} holds "${needle}"`);
      }
    } finally {
      await connection.close();
    }
  });

  it('retries a 429 with backoff, then succeeds (2 requests)', async () => {
    const marker = `jd-429-${unique()}`;
    ai.script(marker, [{ status: 429, error: 'Rate limit reached' }, { content: JSON.stringify(scripted) }]);
    const task = await createTask(marker);
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    assert.equal(done.result.title, scripted.title);
    assert.equal(done.result.model, 'test-jd-model-1');
    assert.equal(ai.requestsWith(marker).length, 2);
    const events = await eventually(() => taskEvents(org.organization.id, task.id), (rows) => rows.length > 0, 10_000);
    assert.deepEqual(events.map((e) => e.type), ['task.succeeded']);
  });

  it('fails cleanly, without retrying, when the provider refuses the request (401), and emits task.failed', async () => {
    const marker = `jd-401-${unique()}`;
    ai.script(marker, [{ status: 401, error: 'Incorrect API key provided' }]);
    const task = await createTask(marker);
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'failed', JSON.stringify(done));
    assert.equal(done.result, null);
    assert.equal(done.error.code, 'ai_request_rejected');
    assert.equal(typeof done.error.message, 'string');
    assert.match(done.error.message, /401/);
    assert.match(done.completedAt, ISO_UTC);
    // Give a wrongly scheduled retry the time to happen before counting.
    await new Promise((r) => setTimeout(r, 3000));
    assert.equal(ai.requestsWith(marker).length, 1);
    const events = await eventually(() => taskEvents(org.organization.id, task.id), (rows) => rows.length > 0, 10_000);
    assert.deepEqual(events.map((e) => e.type), ['task.failed']);
    assert.equal(events[0]!.payload.data.status, 'failed');
    assert.equal(events[0]!.payload.data.error.code, 'ai_request_rejected');
  });

  it('a failed task cannot be applied to its position', async () => {
    const position = await newPosition(org.key, { title: 'Refused role' });
    const marker = `jd-401-apply-${unique()}`;
    ai.script(marker, [{ status: 401 }]);
    const task = await createTask(marker, { positionId: position.id });
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'failed', JSON.stringify(done));
    await assert.rejects(integrations.forOrganization(org.organization.id).tasks.applyToPosition.mutate({ id: task.id }), /has not succeeded/);
    const got = await call('GET', `/api/v1/positions/${position.id}`, { key: org.key });
    assert.equal(got.body.data.description ?? null, null);
  });

  it('applies the provider\'s markdown to the position', async () => {
    const position = await newPosition(org.key, { title: 'Staff Backend Engineer' });
    const marker = `jd-apply-${unique()}`;
    ai.script(marker, [{ content: JSON.stringify(scripted) }]);
    const task = await createTask(marker, { positionId: position.id });
    const done = await finalTask(org.key, task.id);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    await integrations.forOrganization(org.organization.id).tasks.applyToPosition.mutate({ id: task.id });
    const got = await call('GET', `/api/v1/positions/${position.id}`, { key: org.key });
    assert.equal(got.body.data.description, scripted.markdown);
  });
});
