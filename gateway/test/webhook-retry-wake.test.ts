import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { eventually, newOrganizationWithKey, startExtraProcess, startTestServer, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { payloadTexts } from './temporal-history.js';
import { stackConnections } from './stack-connections.js';

// Issue 9: retries queued behind an endpoint at its concurrency cap are woken when a place frees
// (integrations signals the oldest waiting `deliver:<id>` workflow), not left to poll on a timer.
// Asserted on order, attempt counts and the workflows' histories, not on time (CLARIFICATIONS):
// the workflow's only other way out of the wait is a 5-minute fallback timer, past this test's
// deadlines.

const stack = stackConnections();

type HistoryEvent = NonNullable<Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>['events']>[number];

/**
 * For each attempt a retry workflow asked for that was answered `busy`: what happened from its
 * asking to the next one (a wake-up may come before the answer is recorded: the retry was queued
 * while the activity reported back).
 */
function afterBusy(events: HistoryEvent[]) {
  const asks: { busy: boolean; signals: string[]; timersFired: number; nextScheduled: boolean }[] = [];
  for (const e of events) {
    const current = asks.at(-1);
    if (e.activityTaskScheduledEventAttributes) {
      if (current) current.nextScheduled = true;
      asks.push({ busy: false, signals: [], timersFired: 0, nextScheduled: false });
    } else if (!current) continue;
    else if (e.activityTaskCompletedEventAttributes) current.busy = payloadTexts(e.activityTaskCompletedEventAttributes.result ?? {}).some((t) => JSON.parse(t).outcome === 'busy');
    else if (e.workflowExecutionSignaledEventAttributes) current.signals.push(e.workflowExecutionSignaledEventAttributes.signalName ?? '');
    else if (e.timerFiredEventAttributes) current.timersFired++;
  }
  return asks.filter((a) => a.busy).map(({ busy: _busy, ...wait }) => wait);
}

describe('webhook retries queued behind an endpoint at its cap', () => {
  it('are signalled, oldest first, when the attempt holding the endpoint ends: no timer in between, one attempt each', async () => {
    // One attempt in flight per endpoint; a long deadline, so the held retry is still in flight while the others queue.
    const env = { TEMPORAL_TASK_QUEUE: `retry-wake-${process.pid}`, WEBHOOK_TIMEOUT_MS: '60000', WEBHOOK_LEASE_MS: '65000', WEBHOOK_ENDPOINT_CONCURRENCY: '1' };
    const integrations = await startExtraProcess('services/integrations/src/index.ts', 'INTEGRATIONS_PORT', env);
    const worker = await startExtraProcess('workflows/src/worker.ts', 'WORKER_PORT', { ...env, INTEGRATIONS_URL: integrations.url }).catch(async (err: unknown) => {
      await integrations.child.stop();
      throw err;
    });
    // Fails the first attempt of every event (500); holds the first retry it gets until released; answers 200 to the others.
    const seen = new Set<string>();
    const retries: string[] = [];
    let release: (() => void) | null = null;
    let held = false;
    const server = await startTestServer(async (_req, body) => {
      const id = (JSON.parse(body) as { id: string }).id;
      if (!seen.has(id)) {
        seen.add(id);
        return { status: 500, body: '{}' };
      }
      retries.push(id);
      if (!held) {
        held = true;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return { status: 200, body: '{}' };
    });
    try {
      const client = createIntegrationsClient(integrations.url, testEnv().internalTokenKeys);
      const org = await newOrganizationWithKey(['read', 'write', 'admin']);
      const hooks = client.forOrganization(org.organization.id).webhooks;
      const hook = await hooks.create.mutate({ url: `${server.url}/hooks`, events: ['*'] });
      for (let i = 0; i < 2; i++) await hooks.test.mutate({ id: hook.id });

      // Three retry workflows: one holds the endpoint's only place, the other two answered `busy` and queued.
      const queued = async () => (await stack.db.query(`select delivery_id from integrations.endpoint_waiters where webhook_id = $1 and woken_at is null order by since, delivery_id`, [hook.id])).rows.map((r) => r.delivery_id as string);
      assert.equal((await eventually(queued, (q) => q.length === 2 && release !== null, 60_000)).length, 2, 'two retries queued behind the held one');
      const order = await queued();
      const eventOf = async (deliveryId: string) => (await stack.db.query(`select event_id from integrations.deliveries where id = $1`, [deliveryId])).rows[0].event_id as string;
      const queuedEvents = await Promise.all(order.map(eventOf));
      assert.equal(retries.length, 1, 'only the held retry reached the endpoint');

      release!();
      const deliveries = async () => (await stack.db.query(`select id, status, attempts from integrations.deliveries where webhook_id = $1`, [hook.id])).rows as { id: string; status: string; attempts: number }[];
      const rows = await eventually(deliveries, (r) => r.length === 3 && r.every((d) => d.status === 'delivered'), 60_000);
      assert.deepEqual(rows.map((d) => d.status), ['delivered', 'delivered', 'delivered']);
      assert.ok(rows.every((d) => d.attempts === 2), `one failed first attempt and one retry each: ${JSON.stringify(rows)}`);
      assert.equal(retries.length, 3, 'each queued retry reached the endpoint once');
      assert.deepEqual(retries.slice(1), queuedEvents, 'the queued retries were attempted in the order they queued');
      assert.deepEqual(await queued(), [], 'the queue is empty');
      assert.equal((await stack.db.query(`select count(*)::int as n from integrations.endpoint_waiters where webhook_id = $1`, [hook.id])).rows[0].n, 0);

      for (const deliveryId of order) {
        const handle = stack.temporal.workflow.getHandle(`deliver:${deliveryId}`);
        assert.equal(await handle.result(), 'delivered');
        const waits = afterBusy((await handle.fetchHistory()).events ?? []);
        assert.ok(waits.length >= 1, `${deliveryId} was answered busy`);
        for (const wait of waits) {
          assert.ok(wait.nextScheduled, 'it asked again');
          assert.ok(wait.signals.includes('endpointFree'), `it was woken by the endpointFree signal: ${JSON.stringify(wait)}`);
          assert.equal(wait.timersFired, 0, 'no timer fired while it waited');
        }
      }
    } finally {
      (release as (() => void) | null)?.();
      await server.close();
      await worker.child.stop();
      await integrations.child.stop();
    }
  });
});
