import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call, eventually, newOrganizationWithKey, startTestServer, testEnv } from '@hireloop/devstack/testing';
import { createIntegrationsClient } from '@hireloop/integrations/client';
import { newId } from '@hireloop/platform';
import { ID_PREFIXES } from '@hireloop/contracts';
import { stackConnections } from './stack-connections.js';
import { integrationsOfItsOwn } from './integrations-of-its-own.js';

// A failing endpoint (issue 19, PRODUCT.md §8): after WEBHOOK_BREAKER_FAILURES consecutive failed
// attempts its circuit breaker opens; its new deliveries skip the first attempt and join its retry
// queue; its loop probes it with one due delivery at a time; the first success drains the queue in
// order at the endpoint's cap. Asserted on what the receiver saw and what was recorded, not on
// time (CLARIFICATIONS).
//
// An integrations service and a worker of this file's own (their own task queue), with settings
// that make the story short: the breaker opens at 3 failures, probes every second (the schedule's
// first waits), a cap of 3 attempts per endpoint, at most 25 queued retries per endpoint.

const stack = stackConnections();
const CAP = 3;
const BACKLOG_MAX = 25;
const env = {
  TEMPORAL_TASK_QUEUE: `breaker-${process.pid}`,
  WEBHOOK_BREAKER_FAILURES: '3',
  WEBHOOK_ENDPOINT_CONCURRENCY: String(CAP),
  WEBHOOK_ENDPOINT_BACKLOG_MAX: String(BACKLOG_MAX),
  // Probes (and a probed delivery's retries) every second for a while; held deliveries outlive the test.
  WEBHOOK_RETRY_SCHEDULE: `${Array(20).fill('1s').join(',')},600s`,
  // Rounds continue as new often, so that the drain crosses runs.
  WEBHOOK_LOOP_ROUNDS_PER_RUN: '3',
};

type Arrival = { eventId: string; type: string; status: number; at: number };

/**
 * A receiver that answers 500 while `failing` (or 503 asking for `retryAfterSeconds`), then 200
 * (after `delayMs`); counts requests in flight.
 */
async function switchableReceiver(delayMs = 50, retryAfterSeconds?: number) {
  const state = { failing: true, open: 0, mostOpen: 0, mostOpenWhileFailing: 0, arrivals: [] as Arrival[] };
  const server = await startTestServer(async (_req, body) => {
    const event = JSON.parse(body) as { id: string; type: string };
    const failing = state.failing;
    state.open++;
    state.mostOpen = Math.max(state.mostOpen, state.open);
    if (failing) state.mostOpenWhileFailing = Math.max(state.mostOpenWhileFailing, state.open);
    try {
      await new Promise((r) => setTimeout(r, delayMs));
      const status = failing ? (retryAfterSeconds ? 503 : 500) : 200;
      state.arrivals.push({ eventId: event.id, type: event.type, status, at: Date.now() });
      return { status, body: '{}', ...(failing && retryAfterSeconds ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}) };
    } finally {
      state.open--;
    }
  });
  return { url: `${server.url}/hooks`, state, close: server.close };
}

describe('a failing endpoint (circuit breaker)', () => {
  let own: Awaited<ReturnType<typeof integrationsOfItsOwn>>;
  let integrations: typeof own.integrations;
  before(async () => {
    own = await integrationsOfItsOwn(env);
    integrations = own.integrations;
  });
  after(async () => {
    await own?.stop();
  });

  const client = () => createIntegrationsClient(integrations.url, testEnv().internalTokenKeys);

  /** Events of the organization, one per call so that each has its own creation time (the queue's order). */
  async function publish(organizationId: string, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = newId(ID_PREFIXES.event);
      await client().system.events.ingest.mutate({ events: [{ id, type: 'position.created', createdAt: new Date().toISOString(), data: { n: i }, organizationId }] });
      ids.push(id);
      await new Promise((r) => setTimeout(r, 5));
    }
    return ids;
  }

  /** A new organization with one endpoint at the receiver, subscribed to `position.created`. */
  async function endpointAt(receiver: Awaited<ReturnType<typeof switchableReceiver>>) {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const hooks = client().forOrganization(org.organization.id).webhooks;
    const hook = await hooks.create.mutate({ url: receiver.url, events: ['position.created'] });
    return { org, hooks, hook };
  }

  /** An endpoint at the receiver with `count` events published, once its breaker is open (`failing`). */
  async function failingEndpointAt(receiver: Awaited<ReturnType<typeof switchableReceiver>>, count: number) {
    const { org, hooks, hook } = await endpointAt(receiver);
    const events = await publish(org.organization.id, count);
    await eventually(() => hooks.get.query({ id: hook.id }), (w) => w.stats.failingSince !== undefined, 30_000);
    return { hooks, hook, events };
  }

  const deliveriesOf = async (webhookId: string) =>
    (await stack.db.query(`select id, event_id, status, attempts, next_attempt_at <= now() as due from integrations.deliveries where webhook_id = $1 order by created_at, id`, [webhookId]))
      .rows as { id: string; event_id: string; status: string; attempts: number; due: boolean }[];

  /**
   * An endpoint that fails asking for 10 minutes (Retry-After) on each attempt, so that its next
   * probe and a failed delivery's own next time are that far away; `failing`, with a ping and 4
   * events queued.
   */
  async function failingWithRetryAfter(receiver: Awaited<ReturnType<typeof switchableReceiver>>) {
    const { hooks, hook, events } = await failingEndpointAt(receiver, 4);
    const rows = await eventually(() => deliveriesOf(hook.id), (r) => r.length === 5 && r.every((d) => d.status === 'retrying'), 30_000);
    return { hooks, hook, events, rows };
  }

  it('recovers: the whole backlog arrives once, in order, within the cap; meanwhile it is probed one delivery at a time and new deliveries skip the first attempt', async () => {
    const receiver = await switchableReceiver();
    try {
      const { org, hooks, hook } = await endpointAt(receiver);
      const events = await publish(org.organization.id, 20);

      // Failing: the breaker opened after 3 failures (the ping and two first attempts, or so).
      const failing = await eventually(() => hooks.get.query({ id: hook.id }), (w) => w.stats.failingSince !== undefined, 30_000);
      assert.ok(failing.stats.failingSince, 'stats.failingSince says since when');
      // Every event's delivery is queued; those fanned out after the breaker opened never had a first attempt.
      const queued = await eventually(() => deliveriesOf(hook.id), (rows) => rows.length === 21 && rows.every((d) => d.status === 'retrying'), 30_000);
      assert.ok(queued.filter((d) => d.attempts === 0).length >= 10, `held without a first attempt: ${queued.filter((d) => d.attempts === 0).length} of 20`);
      // Probes: real due deliveries, one at a time (the dispatcher's first attempts before the breaker opened are over).
      receiver.state.mostOpenWhileFailing = 0;
      const probed = receiver.state.arrivals.length;
      await eventually(async () => receiver.state.arrivals.length, (n) => n >= probed + 2, 30_000);
      assert.equal(receiver.state.mostOpenWhileFailing, 1, 'one attempt in flight at a time while failing');
      const stats = await hooks.get.query({ id: hook.id });
      assert.equal(stats.stats.retrying, 21);
      // Let every queued delivery come due, then the endpoint answers again.
      await eventually(() => deliveriesOf(hook.id), (rows) => rows.every((d) => d.due), 30_000);
      const recoveredAt = receiver.state.arrivals.length;
      receiver.state.failing = false;

      const rows = await eventually(() => deliveriesOf(hook.id), (r) => r.every((d) => d.status === 'delivered'), 60_000);
      assert.deepEqual([...new Set(rows.map((d) => d.status))], ['delivered']);
      const after = receiver.state.arrivals.slice(recoveredAt);
      const delivered = after.filter((a) => a.status === 200);
      assert.equal(delivered.length, 21, 'each delivery once');
      assert.equal(new Set(delivered.map((a) => a.eventId)).size, 21, 'no delivery twice');
      assert.ok(receiver.state.mostOpen <= CAP, `at most ${CAP} in flight: ${receiver.state.mostOpen}`);
      // In queue order (creation): each arrived within the cap's window of its place.
      const order = [...rows.map((d) => d.event_id)];
      delivered.forEach((a, i) => assert.ok(Math.abs(order.indexOf(a.eventId) - i) < CAP, `${a.eventId} arrived ${i}th, queued ${order.indexOf(a.eventId)}th`));
      assert.deepEqual(events.filter((e) => !delivered.some((a) => a.eventId === e)), [], 'every event arrived');
      assert.equal((await hooks.get.query({ id: hook.id })).stats.failingSince, undefined, 'no longer failing');
      // One loop did it, across runs (continue-as-new), and ended with the queue.
      const runs: { id: string; status: string }[] = [];
      for await (const wf of stack.temporal.workflow.list({ query: `OrganizationId = '${org.organization.id}' AND Kind = 'webhook_delivery'` })) runs.push({ id: wf.workflowId, status: wf.status.name });
      assert.deepEqual([...new Set(runs.map((r) => r.id))], [`endpoint:${hook.id}`]);
      assert.ok(runs.length >= 2, `continued as new: ${runs.length} runs`);
      assert.equal(await stack.temporal.workflow.getHandle(`endpoint:${hook.id}`).result(), 'ended');
    } finally {
      await receiver.close();
    }
  });

  it('a failing endpoint that is disabled is no longer failing: stats.failingSince goes with it (a 410 disables it the same way)', async () => {
    const receiver = await switchableReceiver();
    try {
      const { hooks, hook } = await failingEndpointAt(receiver, 4);
      const disabled = await hooks.update.mutate({ id: hook.id, changes: { status: 'disabled' } });
      assert.equal(disabled.status, 'disabled');
      assert.equal(disabled.stats.failingSince, undefined, 'the PATCH answer says it');
      assert.equal((await hooks.get.query({ id: hook.id })).stats.failingSince, undefined, 'and so does a later read');
      assert.equal((await hooks.list.query({})).items.find((w) => w.id === hook.id)?.stats.failingSince, undefined, 'and the list');
    } finally {
      await receiver.close();
    }
  });

  it('a manual retry while failing joins the head of the queue (its 202 says retrying) and is the next probe; a replay says failing', async () => {
    const receiver = await switchableReceiver();
    try {
      const { hooks, hook } = await failingEndpointAt(receiver, 6);
      const rows = await eventually(() => deliveriesOf(hook.id), (r) => r.length === 7 && r.every((d) => d.status === 'retrying'), 30_000);
      const last = rows.at(-1)!;
      const before = receiver.state.arrivals.length;
      // The probe time only moves forward while the endpoint fails: read before the retry, it bounds the answer.
      const { rows: [probe] } = await stack.db.query(`select probe_at from integrations.webhooks where id = $1`, [hook.id]);
      const asked = Date.now();
      const retried = await hooks.retryDelivery.mutate({ webhookId: hook.id, deliveryId: last.id });
      assert.equal(retried.status, 'retrying', 'joined the retry queue, not the dispatchers');
      const due = Date.parse(retried.nextAttemptAt!);
      assert.ok(due >= (probe.probe_at as Date).getTime() - 1 && due >= asked - 1000, `due at the next probe (${String(probe.probe_at)}), not before: ${retried.nextAttemptAt}`);
      const arrived = await eventually(async () => receiver.state.arrivals.slice(before), (a) => a.some((x) => x.eventId === last.event_id), 30_000);
      // A probe already in flight when the retry was asked for may come first; the next one is the retried delivery.
      assert.ok(arrived.findIndex((x) => x.eventId === last.event_id) <= 1, `the retried delivery was the next probe: ${JSON.stringify(arrived)}`);

      const { rows: [nextProbe] } = await stack.db.query(`select probe_at from integrations.webhooks where id = $1`, [hook.id]);
      const replayed = await hooks.replay.mutate({ id: hook.id, window: { since: new Date(Date.now() - 3600_000).toISOString() } });
      assert.equal(replayed.failing, true, 'the answer says the replay joined a failing endpoint\'s retry queue');
      assert.equal(replayed.count, 6);
      // Each replayed delivery shows when it goes: with the next probe, as a manual retry does, not at the replay's time.
      const again = await eventually(
        async () => (await stack.db.query(`select next_attempt_at from integrations.deliveries where webhook_id = $1 and generation > 0 and status = 'retrying' and event_id <> $2`, [hook.id, last.event_id])).rows,
        (r) => r.length > 0,
        30_000,
      );
      for (const { next_attempt_at: at } of again) assert.ok((at as Date).getTime() >= (nextProbe.probe_at as Date).getTime() - 1, `due with the next probe (${String(nextProbe.probe_at)}), not before: ${String(at)}`);
    } finally {
      await receiver.close();
    }
  });

  it('once the endpoint answers again, a manual retry or a replay that waited for the next probe goes at once, not at that probe\'s time', async () => {
    // While failing it asks for 10 minutes (Retry-After): the next probe is that far away.
    const receiver = await switchableReceiver(50, 600);
    try {
      const { hooks, hook, events, rows } = await failingWithRetryAfter(receiver);
      const retried = await hooks.retryDelivery.mutate({ webhookId: hook.id, deliveryId: rows.at(-1)!.id });
      assert.ok(Date.parse(retried.nextAttemptAt!) > Date.now() + 300_000, `due with the probe the endpoint asked for: ${retried.nextAttemptAt}`);
      const replayed = await hooks.replay.mutate({ id: hook.id, window: { since: new Date(Date.now() - 3600_000).toISOString() } });
      assert.equal(replayed.failing, true);

      // The endpoint answers again, and a ping (attempted at once even while failing) closes the breaker.
      const recoveredAt = receiver.state.arrivals.length;
      receiver.state.failing = false;
      await hooks.test.mutate({ id: hook.id });
      await eventually(() => hooks.get.query({ id: hook.id }), (w) => w.stats.failingSince === undefined, 30_000);
      // Everything queued for that probe is delivered now, long before the probe's time.
      const delivered = await eventually(
        async () => new Set(receiver.state.arrivals.slice(recoveredAt).filter((a) => a.status === 200).map((a) => a.eventId)),
        (ids) => events.every((id) => ids.has(id)),
        60_000,
      );
      assert.ok(events.every((id) => delivered.has(id)), 'every event arrived after the recovery');
      const after = await eventually(() => deliveriesOf(hook.id), (r) => r.filter((d) => d.status === 'delivered').length >= 5, 30_000);
      assert.deepEqual([...new Set(after.filter((d) => events.includes(d.event_id)).map((d) => d.status))], ['delivered']);
    } finally {
      await receiver.close();
    }
  });

  it('once the endpoint answers again, the deliveries whose attempts failed in the outage go at once and first, in order, not at their own next time', async () => {
    // Each failed attempt asks for 10 minutes (Retry-After): a failed delivery's own next time is that far away.
    const receiver = await switchableReceiver(50, 600);
    try {
      const { hooks, hook, events } = await failingWithRetryAfter(receiver);
      const { rows: held } = await stack.db.query(`select event_id from integrations.deliveries where webhook_id = $1 and next_attempt_at > now() + interval '5 minutes' and attempts > 0`, [hook.id]);
      assert.ok(held.some((d) => events.includes(d.event_id as string)), 'an event whose attempt failed waits for its own next time');

      const recoveredAt = receiver.state.arrivals.length;
      receiver.state.failing = false;
      await hooks.test.mutate({ id: hook.id });
      const arrived = await eventually(
        async () => receiver.state.arrivals.slice(recoveredAt).filter((a) => a.status === 200 && events.includes(a.eventId)).map((a) => a.eventId),
        (ids) => events.every((id) => ids.includes(id)),
        60_000,
      );
      assert.equal(arrived.length, 4, 'each once');
      // In the queue's order (creation), within the cap's window: the failed ones (the oldest) are not last.
      arrived.forEach((id, i) => assert.ok(Math.abs(events.indexOf(id) - i) < CAP, `${id} arrived ${i}th, created ${events.indexOf(id)}th: ${JSON.stringify(arrived)}`));
    } finally {
      await receiver.close();
    }
  });

  it('below the breaker\'s threshold a failed delivery keeps its own next time (its Retry-After) when another delivery succeeds', async () => {
    const receiver = await switchableReceiver(50, 600);
    try {
      const { org, hook } = await endpointAt(receiver);
      // The ping and one event fail, asking for 10 minutes: two failures of the three that open the breaker.
      const [failed] = await publish(org.organization.id, 1);
      await eventually(() => deliveriesOf(hook.id), (r) => r.length === 2 && r.every((d) => d.status === 'retrying' && d.attempts === 1), 30_000);
      receiver.state.failing = false;
      const [ok] = await publish(org.organization.id, 1);
      await eventually(() => deliveriesOf(hook.id), (r) => r.some((d) => d.event_id === ok && d.status === 'delivered'), 30_000);
      const { rows: [row] } = await stack.db.query(`select status, next_attempt_at > now() + interval '5 minutes' as waits from integrations.deliveries where webhook_id = $1 and event_id = $2`, [hook.id, failed]);
      assert.deepEqual(row, { status: 'retrying', waits: true }, 'not attempted again before the time the receiver asked for');
      assert.equal(receiver.state.arrivals.filter((a) => a.eventId === failed).length, 1);
    } finally {
      await receiver.close();
    }
  });

  it('at most WEBHOOK_ENDPOINT_BACKLOG_MAX queued retries: the oldest are failed, each with an attempt saying "backlog limit"', async () => {
    const receiver = await switchableReceiver();
    try {
      const { org, hooks, hook } = await endpointAt(receiver);
      await publish(org.organization.id, BACKLOG_MAX + 5);
      const rows = await eventually(
        () => deliveriesOf(hook.id),
        // Every delivery has made its first attempt (none `pending`), and the queue is within the limit.
        (r) => r.length === BACKLOG_MAX + 6 && r.every((d) => d.status === 'retrying' || d.status === 'failed') && r.filter((d) => d.status === 'retrying').length <= BACKLOG_MAX,
        60_000,
      );
      const dropped = rows.filter((d) => d.status === 'failed');
      assert.ok(dropped.length >= 6, `${dropped.length} dropped`);
      assert.ok(rows.filter((d) => d.status === 'retrying').length <= BACKLOG_MAX);
      // The oldest went (one being probed at that moment is skipped for the next oldest).
      assert.ok(dropped.every((d) => rows.indexOf(d) <= dropped.length), JSON.stringify(rows.map((d) => d.status)));
      for (const d of dropped) {
        const { items } = await hooks.attempts.query({ webhookId: hook.id, deliveryId: d.id, limit: 10 });
        assert.ok(items.some((a) => a.statusCode === null && /backlog limit/.test(a.error ?? '')), JSON.stringify(items));
      }
    } finally {
      await receiver.close();
    }
  });

  it('the backlog limit passes over a delivery being attempted for the next oldest, and the queue ends at the limit', async () => {
    const receiver = await switchableReceiver();
    try {
      const { org, hook } = await endpointAt(receiver);
      // The ping and BACKLOG_MAX - 1 events: a full queue, not over it.
      await publish(org.organization.id, BACKLOG_MAX - 1);
      await eventually(() => deliveriesOf(hook.id), (r) => r.length === BACKLOG_MAX && r.every((d) => d.status === 'retrying'), 30_000);
      // The oldest is held as a probe in flight holds it (leased), and the loop makes no other attempt meanwhile.
      const queryHeld = () => stack.db.query<{ id: string }>(
        `update integrations.deliveries set lease_until = now() + interval '1 hour'
         where id = (select id from integrations.deliveries where webhook_id = $1 and status = 'retrying' order by created_at, id limit 1)
           and (lease_until is null or lease_until <= now())
         returning id`, [hook.id]);
      const held = (await eventually(queryHeld, (r) => r.rows.length === 1, 10_000)).rows[0]!.id;

      await publish(org.organization.id, 3);
      const rows = await eventually(
        () => deliveriesOf(hook.id),
        (r) => r.filter((d) => d.status === 'failed').length === 3 && r.filter((d) => d.status === 'retrying').length === BACKLOG_MAX,
        30_000,
      );
      assert.deepEqual([rows.filter((d) => d.status === 'retrying').length, rows.filter((d) => d.status === 'failed').length], [BACKLOG_MAX, 3], JSON.stringify(rows.map((d) => d.status)));
      assert.equal(rows.find((d) => d.id === held)?.status, 'retrying', 'the delivery being attempted stays queued');
      assert.deepEqual(rows.slice(1, 4).map((d) => d.status), ['failed', 'failed', 'failed'], 'the three oldest after it went');
    } finally {
      await receiver.close();
    }
  });

  it('the backlog limit drops a manual retry at the queue\'s head last: the retry a client was answered 202 for stays queued', async () => {
    const receiver = await switchableReceiver();
    try {
      const { org, hooks, hook } = await endpointAt(receiver);
      await publish(org.organization.id, BACKLOG_MAX - 1);
      const full = await eventually(() => deliveriesOf(hook.id), (r) => r.length === BACKLOG_MAX && r.every((d) => d.status === 'retrying'), 30_000);
      // The next probe an hour away (as a failing endpoint's later probes are): the retried delivery waits at the head.
      await stack.db.query(`update integrations.webhooks set probe_at = now() + interval '1 hour' where id = $1`, [hook.id]);
      await eventually(() => stack.db.query(`select count(*)::int as n from integrations.deliveries where webhook_id = $1 and lease_until > now()`, [hook.id]), (r) => r.rows[0].n === 0, 10_000);
      const oldest = full[0]!;
      const retried = await hooks.retryDelivery.mutate({ webhookId: hook.id, deliveryId: oldest.id });
      assert.equal(retried.status, 'retrying');

      await publish(org.organization.id, 3);
      const rows = await eventually(
        () => deliveriesOf(hook.id),
        (r) => r.filter((d) => d.status === 'failed').length === 3 && r.filter((d) => d.status === 'retrying').length === BACKLOG_MAX,
        30_000,
      );
      assert.equal(rows.find((d) => d.id === oldest.id)?.status, 'retrying', 'the manual retry stays queued');
      assert.deepEqual(rows.slice(1, 4).map((d) => d.status), ['failed', 'failed', 'failed'], 'the three oldest behind it went');
    } finally {
      await receiver.close();
    }
  });
});

describe('enabled webhooks per organization (WEBHOOK_ENDPOINTS_PER_ORG_MAX, 50)', () => {
  it('the 51st enabled webhook is 409 conflict, on create and on re-enable; a disabled one does not count', async () => {
    const org = await newOrganizationWithKey(['read', 'write', 'admin']);
    const receiver = await startTestServer(() => ({ status: 200, body: '{}' }));
    try {
      const url = (n: number) => `${receiver.url}/hooks/${n}`;
      const ids: string[] = [];
      for (let i = 0; i < 50; i++) {
        const res = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: url(i), events: ['position.created'] } });
        assert.equal(res.status, 201, res.text);
        ids.push(res.body.data.id);
      }
      const over = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: url(50), events: ['*'] }, headers: { 'idempotency-key': randomUUID() } });
      assert.equal(over.status, 409, over.text);
      assert.equal(over.body.error.code, 'conflict');
      assert.match(over.body.error.message, /50/);

      assert.equal((await call('PATCH', `/api/v1/webhooks/${ids[0]}`, { key: org.key, body: { status: 'disabled' } })).status, 200);
      const fits = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: url(51), events: ['*'] } });
      assert.equal(fits.status, 201, 'a disabled webhook leaves its place');
      const back = await call('PATCH', `/api/v1/webhooks/${ids[0]}`, { key: org.key, body: { status: 'enabled' } });
      assert.equal(back.status, 409, back.text);
      assert.equal(back.body.error.code, 'conflict');
      // Another organization has its own 50.
      const other = await newOrganizationWithKey(['read', 'write', 'admin']);
      assert.equal((await call('POST', '/api/v1/webhooks', { key: other.key, body: { url: url(0), events: ['*'] } })).status, 201);
    } finally {
      await receiver.close();
    }
  });
});
