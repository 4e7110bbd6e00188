import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createIdentityClient } from '@hireloop/identity/client';
import { call, eventually, type ApiResponse } from '@hireloop/devstack/testing';
import type { Topology } from '@hireloop/topology/topology';

/**
 * Shared by the fault files (`npm run test:faults`): steady API writes while a fault is on, and the
 * closing proof that no 2xx-acknowledged write was lost and nothing was done twice.
 */

/** A fresh organization with one key of every scope and a limit the writers never reach. */
export async function newKey(topology: Topology): Promise<string> {
  const identity = createIdentityClient(topology.serviceUrls['identity']!, topology.env['INTERNAL_TOKEN_KEYS']!);
  const organization = await identity.system.organizations.create.mutate({ name: `Faults ${randomUUID().slice(0, 8)}` });
  const key = await identity.forOrganization(organization.id).apiKeys.create.mutate({ name: 'faults', scopes: ['read', 'write', 'admin'], rateLimitPerMinute: 100_000 });
  return key.key;
}

/** A request that has not answered after this is a hang, whatever the fault: the bound it must keep is far lower. */
export const HANG_MS = 30_000;

export interface Write {
  email: string;
  idempotencyKey: string;
  startedAt: number;
  ms: number;
  /** HTTP status, or 'hung' (no answer within HANG_MS) or 'network' (connection refused or reset). */
  status: number | 'hung' | 'network';
  retryAfter: string | null;
  code?: string;
  candidateId?: string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** POST /api/v1/candidates with an Idempotency-Key; never throws. */
export async function createCandidate(gateway: string, key: string, email: string, idempotencyKey: string): Promise<Write & { response?: ApiResponse }> {
  const startedAt = Date.now();
  const headers = { 'idempotency-key': idempotencyKey };
  try {
    const res = await Promise.race([
      call('POST', '/api/v1/candidates', { key, body: { email, name: 'Fault Suite' }, headers, baseUrl: gateway }),
      sleep(HANG_MS).then(() => 'hung' as const),
    ]);
    if (res === 'hung') return { email, idempotencyKey, startedAt, ms: Date.now() - startedAt, status: 'hung', retryAfter: null };
    return {
      email, idempotencyKey, startedAt, ms: Date.now() - startedAt, status: res.status, retryAfter: res.headers.get('retry-after'),
      code: res.body?.error?.code, candidateId: res.body?.data?.id ?? res.body?.error?.candidateId, response: res,
    };
  } catch {
    return { email, idempotencyKey, startedAt, ms: Date.now() - startedAt, status: 'network', retryAfter: null };
  }
}

/** Writers that create candidates back to back until stopped, spread over the gateways; every attempt is kept. */
export function steadyWrites(gateways: string[], key: string, writers = 2, pauseMs = 100) {
  const writes: Write[] = [];
  let running = true;
  const loops = Array.from({ length: writers }, async (_, n) => {
    for (let i = 0; running; i++) {
      const w = await createCandidate(gateways[(n + i) % gateways.length]!, key, `fault-${n}-${i}-${randomUUID().slice(0, 8)}@example.com`, randomUUID());
      delete (w as { response?: unknown }).response;
      writes.push(w);
      await sleep(pauseMs);
    }
  });
  return {
    writes,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

export function statusCounts(writes: Write[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of writes) counts[String(w.status)] = (counts[String(w.status)] ?? 0) + 1;
  return counts;
}

/**
 * The closing proof. Every write not acknowledged is retried with its Idempotency-Key until it is
 * (a 409 `idempotency_key_in_use` means a claim of a crashed request, which lapses); then each
 * e-mail names exactly one candidate (nothing done twice), and every acknowledged id reads back (nothing lost).
 * Returns how the retries ended, for the reliability table.
 */
export async function proveNothingLostNothingTwice(gateway: string, key: string, writes: Write[]): Promise<{ retried: number; retryOutcomes: Record<string, number> }> {
  const unacknowledged = writes.filter((w) => w.status !== 201);
  const outcomes = await Promise.all(
    unacknowledged.map(async (w) => {
      const last = await eventually(
        () => createCandidate(gateway, key, w.email, w.idempotencyKey),
        (r) => r.status === 201 || (r.status === 409 && r.code === 'candidate_exists'),
        120_000,
        1000,
      );
      return last;
    }),
  );
  const retryOutcomes: Record<string, number> = {};
  for (const o of outcomes) {
    const label = o.status === 201 ? (o.response?.headers.get('idempotent-replayed') ? '201 replayed' : '201') : `${o.status} ${o.code ?? ''}`.trim();
    retryOutcomes[label] = (retryOutcomes[label] ?? 0) + 1;
    assert.ok(o.status === 201 || o.status === 409, `a retry of ${o.email} still ends in ${o.status} ${o.code ?? ''}`);
  }
  const acknowledged = new Map<string, string>();
  for (const w of [...writes, ...outcomes]) if (w.status === 201 && w.candidateId) acknowledged.set(w.email, w.candidateId);
  for (const w of writes) {
    const list = await call('GET', `/api/v1/candidates?email=${encodeURIComponent(w.email)}`, { key, baseUrl: gateway });
    assert.equal(list.status, 200, list.text);
    const found = list.body.data as Array<{ id: string }>;
    assert.equal(found.length, 1, `${w.email}: ${found.length} candidates, one expected`);
    const ackId = acknowledged.get(w.email);
    if (ackId) assert.equal(found[0]!.id, ackId, `${w.email} was acknowledged as ${ackId}`);
  }
  return { retried: unacknowledged.length, retryOutcomes };
}

/** Every answer of a write while a fault was on: acknowledged, or 503 with Retry-After; never a 500 or a hang. */
export function assertOnly201Or503(writes: Write[]): void {
  const counts = statusCounts(writes);
  for (const w of writes) {
    assert.ok(w.status === 201 || w.status === 503, `a write answered ${w.status} ${w.code ?? ''} after ${w.ms} ms (all: ${JSON.stringify(counts)})`);
    if (w.status === 503) {
      assert.equal(w.code, 'service_unavailable');
      assert.ok(w.retryAfter, '503 carries Retry-After');
    }
  }
}

/** One line per fault for docs/reliability.md, printed by the suite. */
export function report(fault: string, facts: Record<string, unknown>): void {
  process.stdout.write(`# fault ${fault}: ${JSON.stringify(facts)}\n`);
}
