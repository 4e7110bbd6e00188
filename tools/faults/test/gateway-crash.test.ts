import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { call, eventually } from '@hireloop/devstack/testing';
import { startTestTopology } from '@hireloop/topology/testing';
import type { Topology } from '@hireloop/topology/topology';
import { createCandidate, newKey, report, sleep, type Write } from '../src/writes.js';

/**
 * A gateway SIGKILLed during an Idempotency-Key request, at the worst moment (CLARIFICATIONS
 * "Idempotency that survives a gateway crash"): the owning service has committed the write and
 * answered, and the gateway dies before it reads that answer. Recruiting is paused first so the
 * request waits there; then the gateway is paused, recruiting resumed (it commits and answers
 * into the gateway's socket), and the gateway killed. The client retries with the same key on the
 * other gateway. Expectation: the retry completes, the write exists exactly once, and the retry
 * returns the original result.
 */
let topology: Topology;
before(async () => {
  topology = await startTestTopology('gateway-crash', { instances: 2 });
});
after(() => topology?.stop());

let retry: Write | null = null;

describe('fault: a gateway SIGKILLed during an Idempotency-Key request', () => {
  it('the retry completes and the write exists exactly once', async () => {
    const key = await newKey(topology);
    const [first, second] = topology.gateways as [string, string];
    const email = `crash-${randomUUID().slice(0, 8)}@example.com`;
    const idempotencyKey = randomUUID();
    const recruiting = topology.processes.filter((p) => p.role === 'recruiting');
    const gateway = topology.process('gateway-1');

    for (const p of recruiting) p.signal('SIGSTOP');
    const lost = createCandidate(first, key, email, idempotencyKey);
    await sleep(1500); // the gateway has claimed the key and forwarded the request
    gateway.signal('SIGSTOP');
    for (const p of recruiting) p.signal('SIGCONT');
    // Recruiting commits and answers into the paused gateway's socket.
    const committed = await eventually(
      async () => ((await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key, baseUrl: second })).body.data as unknown[]).length,
      (n) => n === 1,
      30_000,
    );
    assert.equal(committed, 1, 'the write committed while its gateway was paused');
    gateway.signal('SIGKILL');
    await gateway.child?.exited;
    const crashed = await lost;
    assert.equal(crashed.status, 'network', 'the client saw the connection die');

    // The dead gateway's claim on the key lapses (60 s); until then a retry answers 409 idempotency_key_in_use.
    const started = Date.now();
    retry = await eventually(() => createCandidate(second, key, email, idempotencyKey), (r) => r.status !== 409 || r.code !== 'idempotency_key_in_use', 120_000, 2000);
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(email)}`, { key, baseUrl: second });
    const found = list.body.data as Array<{ id: string }>;
    report('gateway SIGKILLed during an Idempotency-Key request', { retryStatus: retry.status, retryCode: retry.code, retryCompletedAfterMs: Date.now() - started, candidates: found.length });
    assert.equal(found.length, 1, 'the write exists exactly once');
    assert.ok(retry.status === 201 || retry.status === 409, `the retry ended in ${retry.status} ${retry.code ?? ''}`);
    assert.equal(retry.candidateId, found[0]!.id, 'the retry names the one candidate');
    await gateway.start();
  });

  it('the retry returns the original 201, found by the service from the forwarded Idempotency-Key', () => {
    // The gateway forwards the key scoped to the API key; recruiting recorded it with the insert,
    // so the retry is answered with the candidate the lost request made, not 409 candidate_exists.
    assert.equal(retry?.status, 201, `the retry ended in ${retry?.status} ${retry?.code ?? ''}`);
    assert.ok(retry?.candidateId, 'the retry names the candidate');
  });
});
