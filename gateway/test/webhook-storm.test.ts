import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newOrganizationWithKey, startExtraGateway, startExtraProcess, testEnv } from '@hireloop/devstack/testing';
import { freePort } from '@hireloop/devstack/ports';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { ID_PREFIXES } from '@hireloop/contracts';
import { newId } from '@hireloop/platform';
import { stackConnections } from './stack-connections.js';
import { startInvite, submitInvite, tokenOf } from './interview-helpers.js';

type Extra = Awaited<ReturnType<typeof startExtraProcess>>;

/**
 * A storm of retries (issue 19): 50 dead endpoints (nothing listens on their port) subscribed to
 * an event type, and 500 events of it. Retries cost one workflow per failing endpoint, and each
 * kind of work has its own task queue, so an evaluation and an erasure started during the storm
 * run on theirs and complete while the deliveries' queues still hold their backlog. No attempt
 * is recorded before its delivery's schedule allows it.
 *
 * A recruiting, an integrations, a gateway and a worker of this file's own (their own
 * deployment, `storm-<pid>`: its lanes are `storm-<pid>-deliveries`, `-ai`, `-erasure`…), on the
 * shared database and Temporal, with a retry schedule long enough that the backlog lasts.
 */
const stack = stackConnections();
const DEPLOYMENT = `storm-${process.pid}`;
const SCHEDULE_SECONDS = [2, 10, 30, 60, 120, 300, 600];
const ENDPOINTS = 50;
const EVENTS = 500;
const STORM_TYPE = 'ats_event.processed' as const;

describe('50 dead endpoints and 500 events', () => {
  let recruiting: Extra;
  let integrations: Extra;
  let gateway: Extra;
  let worker: Extra;
  const env = { TEMPORAL_TASK_QUEUE: DEPLOYMENT, WEBHOOK_RETRY_SCHEDULE: SCHEDULE_SECONDS.map((s) => `${s}s`).join(',') };

  before(async () => {
    recruiting = await startExtraProcess('services/recruiting/src/index.ts', 'RECRUITING_PORT', env);
    integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', { ...env, RECRUITING_URL: recruiting.url });
    gateway = await startExtraGateway({ RECRUITING_URL: recruiting.url, INTEGRATIONS_URL: integrations.url });
    worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, RECRUITING_URL: recruiting.url, INTEGRATIONS_URL: integrations.url });
  });
  after(async () => {
    for (const p of [worker, gateway, integrations, recruiting]) await p?.child.stop();
  });

  /** The task queue a workflow was started on, from its history's first event. */
  async function startedOn(workflowId: string): Promise<string | undefined> {
    const { events } = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
    return events?.[0]?.workflowExecutionStartedEventAttributes?.taskQueue?.name ?? undefined;
  }

  it('costs one workflow per failing endpoint; an evaluation and an erasure run on their own queues and complete while the backlog lasts; no attempt before its time', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const api = (method: string, path: string, body?: unknown) => call(method, `/api/v1${path}`, { key: org.key, baseUrl: gateway.url, body });
    const client = createIntegrationsClient(integrations.url, testEnv().internalTokenKeys);
    const hooks = client.forOrganization(org.organization.id).webhooks;
    const webhookIds: string[] = [];
    // Subscribed to a type nothing else in this test makes (its recruiting's events go to the stack's integrations).
    for (let i = 0; i < ENDPOINTS; i++) webhookIds.push((await hooks.create.mutate({ url: `http://127.0.0.1:${await freePort()}/dead/${i}`, events: [STORM_TYPE] })).id);

    const retryingEndpoints = async () =>
      Number((await stack.db.query(`select count(distinct webhook_id)::int as n from integrations.deliveries where webhook_id = any($1) and status = 'retrying'`, [webhookIds])).rows[0].n);
    const backlog = async () => Number((await stack.db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = any($1) and status = 'retrying'`, [webhookIds])).rows[0].n);
    const runningLoops = async () => (await stack.temporal.workflow.count(`OrganizationId = '${org.organization.id}' AND Kind = 'webhook_delivery' AND ExecutionStatus = 'Running'`)).count;
    const samples: { loops: number; endpoints: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        // Loops first: retrying endpoints only grow during the storm, so a loop counted is an endpoint counted.
        const loops = await runningLoops();
        samples.push({ loops, endpoints: await retryingEndpoints() });
        await new Promise((r) => setTimeout(r, 500));
      }
    })();

    // The storm: 500 events, 50 at a time, each fanned out to the 50 dead endpoints.
    const publish = async (from: number, to: number) => {
      for (let i = from; i < to; i += 50) {
        const events = Array.from({ length: Math.min(50, to - i) }, (_, k) => ({
          id: newId(ID_PREFIXES.event), type: STORM_TYPE, createdAt: new Date().toISOString(), data: { n: i + k }, organizationId: org.organization.id,
        }));
        await client.system.events.ingest.mutate({ events });
      }
    };
    await publish(0, EVENTS / 2);

    // In the middle of it: an interview is submitted (its evaluation) and a candidate erased.
    const position = await api('POST', '/positions', { title: 'Storm Chaser', interviewQuestions: ['Why?', 'How?'] });
    assert.equal(position.status, 201, position.text);
    const scheduled = await api('POST', '/interviews', { positionId: position.body.data.id, candidate: { email: `storm-${Date.now()}@example.com`, name: 'Stormy Weather' } });
    assert.equal(scheduled.status, 201, scheduled.text);
    const interviewId = scheduled.body.data.id as string;
    const token = tokenOf(scheduled.body.data.inviteUrl);
    const started = await startInvite(token, gateway.url);
    assert.equal(started.status, 303, started.text);
    const submitted = await submitInvite(token, ['Because.', 'Carefully.'], undefined, gateway.url);
    assert.equal(submitted.status, 303, submitted.text);
    const candidate = await api('POST', '/candidates', { email: `erase-storm-${Date.now()}@example.com`, name: 'Gone Soon' });
    assert.equal(candidate.status, 201, candidate.text);
    const erasure = await api('DELETE', `/candidates/${candidate.body.data.id}`);
    assert.equal(erasure.status, 202, erasure.text);

    await publish(EVENTS / 2, EVENTS);

    const evaluation = await eventually(async () => (await api('GET', `/interviews/${interviewId}/evaluation`)).body.data, (e) => e?.status === 'completed' || e?.status === 'failed', 120_000);
    const backlogAtEvaluation = await backlog();
    const task = await eventually(async () => (await api('GET', `/tasks/${erasure.body.data.id}`)).body.data, (t) => t?.status === 'succeeded' || t?.status === 'failed', 120_000);
    const backlogAtErasure = await backlog();
    sampling = false;
    await sampler;

    assert.equal(evaluation.status, 'completed');
    assert.equal(task.status, 'succeeded');
    assert.ok(backlogAtEvaluation > 0 && backlogAtErasure > 0, `completed while the delivery queues held a backlog: ${backlogAtEvaluation}, ${backlogAtErasure}`);
    assert.equal(await startedOn(`evaluate:${interviewId}`), `${DEPLOYMENT}-ai`, 'the evaluation ran on the AI lane');
    assert.equal(await startedOn(`erase:${candidate.body.data.id}`), `${DEPLOYMENT}-erasure`, 'the erasure ran on the erasure lane');
    assert.equal(await startedOn(`endpoint:${webhookIds[0]}`), `${DEPLOYMENT}-deliveries`, 'the retries ran on the deliveries lane');

    // Never more delivery workflows than endpoints with retries (before, one per failed delivery: thousands).
    assert.ok(samples.length >= 3, `${samples.length} samples`);
    const over = samples.filter((s) => s.loops > s.endpoints);
    assert.deepEqual(over, [], 'running delivery workflows never exceeded the retrying endpoints');
    assert.ok(samples.some((s) => s.loops > 0), 'the loops ran');
    // The failing endpoints' deliveries are written at a bounded rate (deferred-fan-out.ts): each within a few seconds here.
    const written = async () => Number((await stack.db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = any($1)`, [webhookIds])).rows[0].n);
    assert.equal(await eventually(written, (n) => n >= ENDPOINTS * (EVENTS + 1), 60_000), ENDPOINTS * (EVENTS + 1), 'every event (and each ping) is a delivery to every endpoint');

    // No attempt before its time: consecutive recorded attempts of a delivery are at least the schedule's wait apart.
    const { rows: early } = await stack.db.query(
      `with a as (
         select delivery_id, created_at, row_number() over (partition by delivery_id order by created_at) as k,
           lag(created_at) over (partition by delivery_id order by created_at) as previous
         from integrations.delivery_attempts where webhook_id = any($1)
           and coalesce(error, '') not like 'not attempted%' and coalesce(error, '') not like 'backlog limit%'
       )
       select delivery_id, k, extract(epoch from created_at - previous) as gap from a
       where previous is not null and created_at - previous < make_interval(secs => ($2::float8[])[k - 1])`,
      [webhookIds, SCHEDULE_SECONDS],
    );
    assert.deepEqual(early, [], 'attempts recorded before their scheduled time');

    // Deleting the endpoints ends their loops.
    for (const id of webhookIds) await hooks.delete.mutate({ id });
    assert.equal(await eventually(runningLoops, (n) => n === 0, 30_000), 0);
  });
});
