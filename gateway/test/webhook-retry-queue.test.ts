import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, newOrganizationWithKey, startExtraProcess, startTestServer, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { stackConnections } from './stack-connections.js';

// An endpoint's retry queue (issue 19; before it, issue 9's per-delivery workflows woken by a
// signal): retries queued behind the endpoint's cap are made by the endpoint's one retry loop,
// in queue order, once each, as places free, whatever they waited for. Asserted on order, attempt
// counts and the loop's history, not on time (CLARIFICATIONS).

const stack = stackConnections();

describe('webhook retries queued behind an endpoint at its cap', () => {
  it('are made by one loop for the endpoint, in queue order, once each, as the attempt holding the endpoint ends', async () => {
    // One attempt in flight per endpoint; a long deadline, so the held retry is still in flight while the others wait.
    const env = { TEMPORAL_TASK_QUEUE: `retry-queue-${process.pid}`, WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_LEASE_MS: '65000', WEBHOOK_ENDPOINT_CONCURRENCY: '1' };
    const integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, INTEGRATIONS_URL: integrations.url }).catch(async (err: unknown) => {
      await integrations.child.stop();
      throw err;
    });
    // Fails the first attempt of every event (500); holds the first retry it gets until released; answers 200 to the others.
    const seen = new Set<string>();
    const retries: string[] = [];
    let open = 0;
    let mostOpen = 0;
    let release: (() => void) | null = null;
    let held = false;
    const server = await startTestServer(async (_req, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      if (!seen.has(id)) {
        seen.add(id);
        return { status: 500, body: '{}' };
      }
      retries.push(id);
      open++;
      mostOpen = Math.max(mostOpen, open);
      try {
        if (!held) {
          held = true;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return { status: 200, body: '{}' };
      } finally {
        open--;
      }
    });
    try {
      const client = createIntegrationsClient(integrations.url, testEnv().internalTokenKeys);
      const org = await newOrganizationWithKey(['read', 'write', 'admin']);
      const hooks = client.forOrganization(org.organization.id).webhooks;
      const hook = await hooks.create.mutate({ url: `${server.url}/hooks`, events: ['*'] });
      for (let i = 0; i < 2; i++) await hooks.test.mutate({ id: hook.id });
      const deliveries = async () =>
        (await stack.db.query(`select id, event_id, status, attempts from integrations.deliveries where webhook_id = $1 order by created_at, id`, [hook.id])).rows as { id: string; event_id: string; status: string; attempts: number }[];

      // Three retries queued: the oldest holds the endpoint's only place, the other two wait behind it.
      const queued = await eventually(deliveries, (rows) => rows.length === 3 && rows.every((d) => d.status === 'retrying') && release !== null, 60_000);
      assert.deepEqual(queued.map((d) => d.status), ['retrying', 'retrying', 'retrying']);
      await new Promise((r) => setTimeout(r, 2000));
      assert.equal(retries.length, 1, 'only the held retry reached the endpoint');
      assert.equal(retries[0], queued[0]!.event_id, 'the oldest first');

      release!();
      const rows = await eventually(deliveries, (r) => r.every((d) => d.status === 'delivered'), 60_000);
      assert.deepEqual(rows.map((d) => d.status), ['delivered', 'delivered', 'delivered']);
      assert.ok(rows.every((d) => d.attempts === 2), `one failed first attempt and one retry each: ${JSON.stringify(rows)}`);
      assert.deepEqual(retries, queued.map((d) => d.event_id), 'each retry reached the endpoint once, in queue order');
      assert.equal(mostOpen, 1, 'never more than the endpoint\'s cap in flight');

      // One loop made them all, and ended with the queue empty: no workflow per delivery.
      const loops: string[] = [];
      for await (const wf of stack.temporal.workflow.list({ query: `OrganizationId = '${org.organization.id}' AND Kind = 'webhook_delivery'` })) loops.push(wf.workflowId);
      assert.deepEqual([...new Set(loops)], [`endpoint:${hook.id}`]);
      const loop = stack.temporal.workflow.getHandle(`endpoint:${hook.id}`);
      assert.equal(await loop.result(), 'ended');
      // Its waits were timers and wake-ups, not polling: a handful of rounds for three retries.
      const events = (await loop.fetchHistory()).events ?? [];
      const rounds = events.filter((e) => e.activityTaskScheduledEventAttributes).length;
      assert.ok(rounds <= 6, `${rounds} rounds`);

      // A loop that has ended starts again (a new run of the same id) when a retry is queued again.
      const runsOf = async () => {
        const runs: string[] = [];
        for await (const wf of stack.temporal.workflow.list({ query: `WorkflowId = 'endpoint:${hook.id}'` })) runs.push(wf.status.name);
        return runs;
      };
      const endedRuns = (await runsOf()).length;
      await hooks.test.mutate({ id: hook.id });
      const again = await eventually(deliveries, (r) => r.length === 4 && r.every((d) => d.status === 'delivered'), 60_000);
      assert.equal(again.at(-1)!.attempts, 2, 'the new ping failed once, then its retry was made');
      const runs = await eventually(runsOf, (r) => r.length > endedRuns && r.every((status) => status === 'COMPLETED'), 30_000);
      assert.ok(runs.length > endedRuns && runs.every((status) => status === 'COMPLETED'), `a new run that ended too: ${JSON.stringify(runs)}`);
    } finally {
      (release as (() => void) | null)?.();
      await server.close();
      await worker.child.stop();
      await integrations.child.stop();
    }
  });
});
