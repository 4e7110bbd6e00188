import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { createCandidate, newKey, proveNothingLostNothingTwice, report, type Write } from '../src/writes.js';

/**
 * Each service SIGKILLed in turn (CLARIFICATIONS "A service down"), with one instance of each, so
 * the service is really gone. Expectation: with identity down every /api/v1 route answers 503
 * (keys cannot be verified); with recruiting or integrations down only their routes answer 503
 * and the others keep working; with the worker down the API is unaffected; each answer is 503
 * service_unavailable with Retry-After, never a 500 or a hang; a restart recovers every route;
 * no acknowledged write is lost and nothing is done twice.
 */
let topology: Topology;
before(async () => {
  topology = await startTestTopology('services-down', { instances: 1 });
});
after(() => topology?.stop());

type Probe = 'me' | 'candidates' | 'create' | 'webhooks';
const OWNER: Record<Probe, string> = { me: 'identity', candidates: 'recruiting', create: 'recruiting', webhooks: 'integrations' };

describe('fault: each service SIGKILLed in turn', () => {
  it('its routes answer 503, the others keep working, a restart recovers', async () => {
    const key = await newKey(topology);
    const gateway = topology.gateways[0]!;
    const writes: Write[] = [];
    const probe = async (what: Probe): Promise<{ status: number; code?: string; retryAfter: string | null }> => {
      if (what === 'create') {
        const w = await createCandidate(gateway, key, `down-${randomUUID().slice(0, 8)}@example.com`, randomUUID());
        delete (w as { response?: unknown }).response;
        writes.push(w);
        assert.equal(typeof w.status, 'number', `POST /candidates ${w.status}`);
        return { status: w.status as number, code: w.code, retryAfter: w.retryAfter };
      }
      const path = { me: '/api/v1/me', candidates: '/api/v1/candidates?limit=1', webhooks: '/api/v1/webhooks' }[what];
      const res = await call('GET', path, { key, baseUrl: gateway });
      return { status: res.status, code: res.body?.error?.code, retryAfter: res.headers.get('retry-after') };
    };
    const probes: Probe[] = ['me', 'candidates', 'create', 'webhooks'];
    const seen: Record<string, Record<string, number>> = {};

    for (const service of ['identity', 'recruiting', 'integrations', 'worker']) {
      const proc = topology.process(`${service}-1`);
      proc.signal('SIGKILL');
      await proc.child?.exited;
      seen[service] = {};
      for (const what of probes) {
        const r = await probe(what);
        seen[service][what] = r.status;
        const down = service === 'identity' || OWNER[what] === service;
        if (down) {
          assert.equal(r.status, 503, `${what} with ${service} down`);
          assert.equal(r.code, 'service_unavailable');
          assert.ok(r.retryAfter, 'Retry-After');
        } else {
          assert.ok(r.status >= 200 && r.status < 300, `${what} with ${service} down answered ${r.status} ${r.code ?? ''}`);
        }
      }
      await proc.start();
      for (const what of probes) {
        const r = await probe(what);
        assert.ok(r.status >= 200 && r.status < 300, `${what} after ${service} restarted answered ${r.status} ${r.code ?? ''}`);
      }
    }
    const proof = await proveNothingLostNothingTwice(gateway, key, writes);
    report('each service SIGKILLed in turn', { statusesWhileDown: seen, ...proof });
  });
});
