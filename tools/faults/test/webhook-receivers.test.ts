import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, eventually } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { newKey, report } from '../src/writes.js';

/**
 * Webhook receivers that misbehave: one hangs (never answers), one drips its response a byte a
 * second, one answers 500, one resets the connection. Each gets the `webhook.ping` sent at
 * registration, and its retries (WEBHOOK_RETRY_SCHEDULE 1s,1s: three attempts).
 * Expectation: no attempt outlives the 15 s total deadline (WEBHOOK_TIMEOUT_MS, the default),
 * every request a receiver saw is an attempt in the delivery log with its outcome, and the
 * delivery ends failed after its last attempt. The dripping receiver answered 200 at once: the
 * deadline is for connect, send and the headers (PRODUCT.md §8), so its one attempt delivers,
 * with what of the body came in time as the excerpt.
 */
const DEADLINE_MS = 15_000;
/** Scheduling slack on a loaded machine when checking that the deadline held. */
const SLACK_MS = 5_000;
const MODES = ['hang', 'drip', 'status500', 'reset'] as const;
type Mode = (typeof MODES)[number];

interface Seen {
  at: number;
  /** When the connection closed (the sender gave up or finished). */
  closedAt?: number;
}

function receiver(mode: Mode): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const entry: Seen = { at: Date.now() };
    seen.push(entry);
    req.socket.once('close', () => (entry.closedAt = Date.now()));
    req.resume();
    if (mode === 'status500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('no');
    if (mode === 'reset') return void req.socket.resetAndDestroy();
    if (mode === 'drip') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 1000);
      req.socket.once('close', () => clearInterval(timer));
    }
    // hang: nothing, ever.
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen, server })));
}

let topology: Topology;
before(async () => {
  topology = await startTestTopology('webhook-receivers', { instances: 1, env: { WEBHOOK_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_SCHEDULE: '1s,1s' } });
});
after(() => topology?.stop());

describe('fault: webhook receivers that hang, drip, answer 500 or reset', () => {
  it('the 15 s total deadline holds and every attempt is logged', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const receivers = await Promise.all(MODES.map(async (mode) => ({ mode, ...(await receiver(mode)) })));
    try {
      const facts: Record<string, unknown> = {};
      await Promise.all(
        receivers.map(async (r) => {
          const hook = await call('POST', '/api/v1/webhooks', { key, baseUrl: gateway, body: { url: r.url, events: ['*'] } });
          assert.equal(hook.status, 201, hook.text);
          const hookId = hook.body.data.id as string;
          const delivery = await eventually(
            async () => ((await call('GET', `/api/v1/webhooks/${hookId}/deliveries`, { key, baseUrl: gateway })).body.data as Array<{ id: string; status: string }>)[0],
            (d) => d?.status === (r.mode === 'drip' ? 'delivered' : 'failed'),
            180_000,
            1000,
          );
          assert.equal(delivery?.status, r.mode === 'drip' ? 'delivered' : 'failed', `${r.mode}: the delivery ends ${r.mode === 'drip' ? 'delivered' : 'failed'}`);
          const attempts = (await call('GET', `/api/v1/webhooks/${hookId}/deliveries/${delivery!.id}/attempts`, { key, baseUrl: gateway })).body.data as Array<{ statusCode: number | null; error: string | null; latencyMs: number }>;
          assert.equal(attempts.length, r.seen.length, `${r.mode}: every request the receiver saw is logged (${attempts.length} logged, ${r.seen.length} seen)`);
          assert.ok(r.mode === 'drip' ? attempts.length === 1 : attempts.length >= 3, `${r.mode}: ${r.mode === 'drip' ? 'one attempt' : 'three attempts'}`);
          for (const a of attempts) {
            assert.ok(a.latencyMs <= DEADLINE_MS + SLACK_MS, `${r.mode}: an attempt logged ${a.latencyMs} ms`);
            if (r.mode === 'drip') assert.equal(a.statusCode, 200, 'drip: a 2xx whose body is slow is a success');
            else assert.ok(a.error !== null || (a.statusCode ?? 0) >= 300, `${r.mode}: the attempt is logged as failed`);
          }
          // A receiver that never finishes its answer: the sender closes the connection at the deadline.
          // (After a complete answer it may keep the connection for its next request.)
          if (r.mode === 'hang' || r.mode === 'drip') {
            for (const s of r.seen) assert.ok(s.closedAt !== undefined && s.closedAt - s.at <= DEADLINE_MS + SLACK_MS, `${r.mode}: the sender let go of the connection within the deadline`);
          }
          facts[r.mode] = {
            attempts: attempts.length,
            longestAttemptMs: Math.max(...attempts.map((a) => a.latencyMs)),
            outcomes: [...new Set(attempts.map((a) => a.error ?? `HTTP ${a.statusCode}`))],
          };
        }),
      );
      report('webhook receivers that hang, drip, answer 500 or reset', facts);
    } finally {
      for (const r of receivers) r.server.closeAllConnections();
      await Promise.all(receivers.map((r) => new Promise((done) => r.server.close(done))));
    }
  });
});
