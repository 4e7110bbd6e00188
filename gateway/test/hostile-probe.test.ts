import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import pg from 'pg';
import { call, eventually, newKey, newOrganizationWithKey, startTestServer, testEnv, testIdentity, type ApiResponse } from '@hireloop/devstack/testing';
import { createRecruitingClient } from '@hireloop/recruiting/client';
import { assertError, assertValidation, unique } from './api-assertions.js';
import { newPosition, schedule, startInvite, submitInvite, tokenOf, uniqueEmail } from './interview-helpers.js';
import { rawRequest, type RawResponse } from './hostile/raw-http.js';
import { validatorsFor, type OpenApiDocument } from './hostile/api-requests.js';
import { stackConnections } from './stack-connections.js';

/**
 * Issue 18: what an independent hostile probe found on main, one `describe` per item of the
 * issue, each test named for its rule. The probe's families run as fast-check properties
 * (prototype keys, duplicate headers, long parameter lists, invisible strings, dot segments):
 * FUZZ_RUNS / 20 cases each (100 by default; `npm run test:fuzz` runs 1 000), FUZZ_SEED replays.
 */
const FAMILY_RUNS = Math.max(20, Math.floor(Number(process.env['FUZZ_RUNS'] ?? 2000) / 20));
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : (Date.now() ^ (Math.random() * 2 ** 31)) | 0;
const fuzz = { numRuns: FAMILY_RUNS, seed: SEED, endOnFailure: true };

type Org = Awaited<ReturnType<typeof newOrganizationWithKey>>;
/** An organization of its own with a limit the families cannot reach. */
const newOrg = (): Promise<Org> => newOrganizationWithKey(['read', 'write', 'admin'], 1_000_000);

/** A console user's session cookie in the organization. */
async function sessionCookie(organizationId: string): Promise<string> {
  const email = `probe-${unique()}@example.com`;
  const password = `pw-${unique()}-${unique()}`;
  await testIdentity().system.users.create.mutate({ organizationId, email, name: 'Probe', password });
  const login = await fetch(`${testEnv().gatewayUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  assert.equal(login.status, 200, await login.text());
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** tRPC's error shape, with our code in `data.appCode`. */
function assertTrpcError(res: RawResponse | ApiResponse<unknown>, status: number, appCode: string, label = '') {
  assert.equal(res.status, status, `${label}: ${res.text.slice(0, 300)}`);
  const error = (res.body as { error?: { message?: unknown; data?: { appCode?: unknown; httpStatus?: unknown } } }).error;
  assert.equal(typeof error?.message, 'string', `${label}: not tRPC's error shape: ${res.text.slice(0, 300)}`);
  assert.equal(error?.data?.appCode, appCode, `${label}: ${res.text.slice(0, 300)}`);
  assert.equal(error?.data?.httpStatus, status, label);
}


describe('the /trpc proxy stays inside tRPC (issue 18 item 1)', () => {
  let cookie = '';
  before(async () => {
    cookie = await sessionCookie((await newOrg()).organization.id);
  });

  /** A service's own /healthz or /readyz answered: the proxy left the service's tRPC. */
  const escaped = (res: RawResponse) => /"status":"(ok|ready|unavailable)"|"error":"not found"/.test(res.text);

  it('a dot segment, encoded or not, a // or a backslash after /trpc/<service> is 404 in tRPC\'s shape', async () => {
    for (const path of [
      '/trpc/recruiting/%2e%2e/%2e%2e/healthz', '/trpc/recruiting/%2E%2E/healthz', '/trpc/recruiting/.%2e/readyz', '/trpc/recruiting/../healthz',
      '/trpc/recruiting/..%2fhealthz', '/trpc/recruiting/candidates.list/..', '/trpc/recruiting//candidates.list', '/trpc/recruiting/..\\healthz',
      '/trpc/recruiting/%5c..%5chealthz', '/trpc/recruiting/candidates..list', '/trpc/recruiting/.', '/trpc/recruiting/candidates.list%3Fx=1',
      '/trpc/identity/%2e%2e/%2e%2e/healthz?x=1',
    ]) {
      const res = await rawRequest('GET', path, [['Cookie', cookie]]);
      assertTrpcError(res, 404, 'route_not_found', path);
      assert.ok(!escaped(res), `${path} reached a service's own route: ${res.text}`);
    }
  });

  it('a service name is looked up as an own property: constructor, __proto__ and the like are 404, not 503', async () => {
    for (const path of ['/trpc/constructor/x', '/trpc/__proto__/x', '/trpc/toString/candidates.list', '/trpc/hasOwnProperty/x', '/trpc/valueOf/x', '/trpc/recr%75iting/candidates.list']) {
      assertTrpcError(await rawRequest('GET', path, [['Cookie', cookie]]), 404, 'route_not_found', path);
    }
  });

  it('procedure names still reach the service: one call and a batch', async () => {
    const one = await rawRequest('GET', `/trpc/recruiting/candidates.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`, [['Cookie', cookie]]);
    assert.equal(one.status, 200, one.text);
    const batch = await rawRequest('GET', `/trpc/recruiting/candidates.list,positions.list?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: { limit: 1 }, 1: { limit: 1 } }))}`, [['Cookie', cookie]]);
    assert.equal(batch.status, 200, batch.text);
    assert.equal((batch.body as unknown[]).length, 2);
  });

  it('a URL longer than /trpc forwards is 431 in tRPC\'s shape, before any call', async () => {
    const res = await rawRequest('GET', `/trpc/recruiting/candidates.list?input=${'x'.repeat(9000)}`, [['Cookie', cookie]]);
    assertTrpcError(res, 431, 'headers_too_large');
  });

  it('fuzz, dot segments: only a path of procedure names is forwarded, and no path leaves the service\'s tRPC', async () => {
    const segment = fc.constantFrom('..', '.', '%2e%2e', '%2E.', '.%2e', '%2e', '', '\\', '%5c', '%2f', '%2F..', 'healthz', 'readyz', 'candidates.list', 'x', '..;', '%00', '%252e%252e');
    const procedure = /^[A-Za-z0-9_]+(?:[.,][A-Za-z0-9_]+)*$/;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('recruiting', 'identity', 'integrations'), fc.array(segment, { minLength: 1, maxLength: 5 }), async (service, segments) => {
        const rest = segments.join('/');
        const res = await rawRequest('GET', `/trpc/${service}/${rest}`, [['Cookie', cookie]]);
        assert.ok(res.status < 500, `${rest}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.ok(!escaped(res), `/trpc/${service}/${rest} reached a service's own route: ${res.text}`);
        // A procedure path is the service's to answer (its 404 for an unknown procedure); anything else is ours.
        if (!procedure.test(rest)) assertTrpcError(res, 404, 'route_not_found', rest);
      }),
      fuzz,
    );
  });
});

describe('no field accepted and dropped (issue 18 item 2)', () => {
  let org: Org;
  before(async () => {
    org = await newOrg();
  });

  it('a metadata key __proto__ is 422 with the key in details, on POST and PATCH', async () => {
    const post = await call('POST', '/api/v1/candidates', { key: org.key, rawBody: `{"email":"${uniqueEmail('proto')}","name":"P","metadata":{"__proto__":"x","a":"b"}}`, headers: { 'content-type': 'application/json' } });
    assertValidation(post, 'metadata.__proto__');
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('proto'), name: 'P' } });
    const patch = await call('PATCH', `/api/v1/candidates/${created.body.data.id}`, { key: org.key, rawBody: '{"metadata":{"__proto__":null}}', headers: { 'content-type': 'application/json' } });
    assertValidation(patch, 'metadata.__proto__');
  });

  it('constructor and prototype stay ordinary metadata keys, stored and returned', async () => {
    const metadata = { constructor: 'c', prototype: 'p', toString: 't', hasOwnProperty: 'h' };
    const post = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('ctor'), name: 'C', metadata } });
    assert.equal(post.status, 201, post.text);
    assert.deepEqual(post.body.data.metadata, metadata);
    const patched = await call('PATCH', `/api/v1/candidates/${post.body.data.id}`, { key: org.key, body: { metadata: { constructor: null, valueOf: 'v' } } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.data.metadata, { prototype: 'p', toString: 't', hasOwnProperty: 'h', valueOf: 'v' });
  });

  it('a filter past the 1 000th query parameter is 422, never ignored', async () => {
    const email = uniqueEmail('pairs');
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'Pairs' } });
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('pairs'), name: 'Other' } });
    // Empty pairs count: 999 of them and the filter are 1 000 pairs, read in full.
    const read = await call('GET', `/api/v1/candidates?${'&'.repeat(999)}email=${encodeURIComponent(email)}`, { key: org.key });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.data.map((c: { email: string }) => c.email), [email]);
    const refused = await call('GET', `/api/v1/candidates?${'&'.repeat(1000)}email=${encodeURIComponent(email)}`, { key: org.key });
    assertValidation(refused, 'query');
    assertValidation(await call('GET', `/api/v1/positions?${'limit=1&'.repeat(1001)}`, { key: org.key }), 'query');
  });

  it('an unknown query parameter is 422 even when empty; an empty one the route takes counts as absent', async () => {
    assertValidation(await call('GET', '/api/v1/candidates?colour=', { key: org.key }), 'colour');
    assertValidation(await call('GET', '/api/v1/candidates?constructor', { key: org.key }), 'constructor');
    assert.equal((await call('GET', '/api/v1/candidates?email=&limit=', { key: org.key })).status, 200);
  });

  it('a DELETE body is read as its query: an unknown field is 422, a cancel reason in it is kept, one in both is 422', async () => {
    const candidate = (await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('delete-body'), name: 'D' } })).body.data;
    assertValidation(await call('DELETE', `/api/v1/candidates/${candidate.id}`, { key: org.key, body: { reason: 'x' } }), 'reason');
    assert.equal((await call('GET', `/api/v1/candidates/${candidate.id}`, { key: org.key })).status, 200, 'not erased');
    const position = await newPosition(org.key);
    const interview = await schedule(org.key, position.id);
    assertValidation(await call('DELETE', `/api/v1/interviews/${interview.id}`, { key: org.key, body: { reason: 'moved on', notify: true } }), 'notify');
    assertValidation(await call('DELETE', `/api/v1/interviews/${interview.id}?reason=a`, { key: org.key, body: { reason: 'b' } }), 'reason');
    assertValidation(await call('DELETE', `/api/v1/interviews/${interview.id}`, { key: org.key, body: { reason: '' } }), 'reason');
    const cancelled = await call('DELETE', `/api/v1/interviews/${interview.id}`, { key: org.key, body: { reason: 'moved on' } });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.data.cancellationReason, 'moved on');
  });

  it('a GET takes its parameters in the query: a field in its body is 422 (not ignored), {} is none, a body that is not JSON 400 or 415', async () => {
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('get-body'), name: 'G' } });
    await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('get-body'), name: 'H' } });
    const auth: [string, string][] = [['Authorization', `Bearer ${org.key}`]];
    const json: [string, string][] = [...auth, ['Content-Type', 'application/json']];
    for (const body of ['{"limit":1}', '{"sort":"name"}']) {
      const refused = await rawRequest('GET', '/api/v1/candidates', json, Buffer.from(body));
      assert.equal(refused.status, 422, refused.text);
      assert.equal((refused.body as { error: { details: { path: string }[] } }).error.details[0]!.path, Object.keys(JSON.parse(body) as object)[0]);
    }
    const none = await rawRequest('GET', '/api/v1/candidates?limit=1', json, Buffer.from('{}'));
    assert.equal(none.status, 200, none.text);
    assert.equal((none.body as { data: unknown[] }).data.length, 1);
    assert.equal((await rawRequest('GET', '/api/v1/candidates', json, Buffer.from('{'))).status, 400);
    assert.equal((await rawRequest('GET', '/api/v1/candidates', [...auth, ['Content-Type', 'text/plain']], Buffer.from('limit=1'))).status, 415);
    const empty = await rawRequest('GET', '/api/v1/candidates', [...json, ['Content-Length', '0']]);
    assert.equal(empty.status, 200, 'no body is no body');
  });

  it('fuzz, prototype keys: every metadata key is stored as given, or the request is 422 naming __proto__', async () => {
    const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf', '__lookupSetter__'), fc.string({ minLength: 1, maxLength: 12 }));
    const entries = fc.uniqueArray(fc.tuple(key, fc.string({ maxLength: 20 })), { selector: ([k]) => k, maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(entries, async (pairs) => {
        const metadata = Object.fromEntries(pairs); // own keys, `__proto__` included
        const res = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('fuzz-proto'), name: 'Fuzz', metadata } });
        if (Object.hasOwn(metadata, '__proto__')) return assertValidation(res, 'metadata.__proto__');
        assert.equal(res.status, 201, res.text);
        assert.deepEqual(Object.entries(res.body.data.metadata).sort(), [...pairs].sort());
      }),
      fuzz,
    );
  });

  it('fuzz, long parameter lists: past 1 000 pairs the request is 422, up to it every pair is read', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 985, max: 1015 }), fc.nat(), async (empty, at) => {
        const pairs: string[] = Array.from({ length: empty }, () => '');
        pairs.splice(at % (empty + 1), 0, 'limit=1');
        const res = await call('GET', `/api/v1/candidates?${pairs.join('&')}`, { key: org.key });
        if (pairs.length > 1000) return assertValidation(res, 'query');
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.length, 1, 'the limit was read');
      }),
      fuzz,
    );
  });
});

describe('ambiguous credentials are refused (issue 18 item 3)', () => {
  let a: Org;
  let b: Org;
  before(async () => {
    [a, b] = await Promise.all([newOrg(), newOrg()]);
  });

  const assertInvalidKey = (res: RawResponse, label: string) => {
    assert.equal(res.status, 401, `${label}: ${res.text}`);
    assert.equal((res.body as { error: { code: string } }).error.code, 'invalid_api_key', label);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="hireloop", error="invalid_token"/, label);
  };

  it('two Authorization headers are 401 invalid_api_key, never "the first one wins"', async () => {
    for (const [first, second] of [[a.key, b.key], [a.key, a.key], [a.key, ''], ['Basic eDp5', b.key]] as const) {
      const auth = (v: string) => (v.startsWith('Basic') || v === '' ? v : `Bearer ${v}`);
      const res = await rawRequest('GET', '/api/v1/me', [['Authorization', auth(first)], ['Authorization', auth(second)]]);
      assertInvalidKey(res, `${first.slice(0, 12)} + ${second.slice(0, 12)}`);
    }
  });

  it('two Content-Type headers are 415, whichever comes first', async () => {
    const body = Buffer.from(JSON.stringify({ title: 'Two types' }));
    for (const types of [['application/json', 'text/plain'], ['text/plain', 'application/json'], ['application/json', 'application/json']]) {
      const res = await rawRequest('POST', '/api/v1/positions', [['Authorization', `Bearer ${a.key}`], ...types.map((t) => ['Content-Type', t] as [string, string])], body);
      assert.equal(res.status, 415, `${types.join(' + ')}: ${res.text}`);
      assert.equal((res.body as { error: { code: string } }).error.code, 'unsupported_media_type');
    }
  });

  it('fuzz, duplicate headers: one Authorization is the key it names, two or more are 401', async () => {
    const value = fc.constantFrom(`Bearer ${a.key}`, `Bearer ${b.key}`, 'Bearer hl_garbage', 'Basic eDp5', '');
    const extra = fc.array(fc.tuple(fc.constantFrom('Content-Type', 'Accept', 'X-Request-Id', 'Idempotency-Key'), fc.constantFrom('application/json', 'text/plain', 'req_probe', 'k')), { maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 3 }), extra, async (authorizations, others) => {
        const headers: [string, string][] = [...authorizations.map((v) => ['Authorization', v] as [string, string]), ...others];
        const res = await rawRequest('GET', '/api/v1/me', headers);
        assert.ok(res.status < 500, `${res.status} ${res.text}`);
        if (authorizations.length > 1) return assertInvalidKey(res, JSON.stringify(authorizations.map((v) => v.slice(0, 12))));
        const [only] = authorizations;
        if (only === `Bearer ${a.key}` || only === `Bearer ${b.key}`) {
          assert.equal(res.status, 200, res.text);
          assert.equal((res.body as { data: { organization: { id: string } } }).data.organization.id, (only === `Bearer ${a.key}` ? a : b).organization.id);
        } else assert.equal(res.status, 401, res.text);
      }),
      fuzz,
    );
  });
});

describe('client input never answers 5xx (issue 18 item 4)', () => {
  let org: Org;
  before(async () => {
    org = await newOrg();
  });

  it('an unknown route, a method the path does not serve, or a key without the scope: 404, 405 or 403 before the body is read', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    assertError(await call('POST', '/api/v1/nope', { key: org.key, rawBody: 'x', headers: form }), 404, 'route_not_found');
    assertError(await call('PUT', '/api/v1/me', { key: org.key, rawBody: '{', headers: { 'content-type': 'application/json' } }), 405, 'route_not_found');
    const { key: reader } = await newKey(org.organization.id, ['read']);
    assertError(await call('POST', '/api/v1/positions', { key: reader, rawBody: '{', headers: { 'content-type': 'application/json' } }), 403, 'insufficient_scope');
    for (const headers of [{}, { authorization: `Bearer ${org.key}` }] as Record<string, string>[]) {
      const res = await call('POST', '/api/v1/openapi.json', { headers });
      assertError(res, 405, 'route_not_found');
      assert.equal(res.headers.get('allow'), 'GET, HEAD');
    }
  });

  it('an Expect other than 100-continue is served as if it were not there, with the headers of every response', async () => {
    for (const [method, path, body] of [['GET', '/api/v1/me', undefined], ['POST', '/api/v1/positions', Buffer.from('{')]] as const) {
      const res = await rawRequest(method, path, [['Authorization', `Bearer ${org.key}`], ['Expect', 'foo'], ...(body ? [['Content-Type', 'application/json'] as [string, string]] : [])], body);
      assert.equal(res.status, method === 'GET' ? 200 : 400, res.text);
      assert.match(res.headers.get('x-request-id') ?? '', /\S/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
  });

  it('an invite token over its maximum length is the 404 page, before any call', async () => {
    const token = 'x'.repeat(16_000);
    for (const [method, path] of [['GET', `/i/${token}`], ['POST', `/i/${token}/start`], ['POST', `/i/${token}/submit`], ['POST', `/i/${token}/decline`], ['GET', `/i/${'y'.repeat(101)}`]] as const) {
      const res = await fetch(`${testEnv().gatewayUrl}${path}`, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: method === 'POST' ? 'consent=agree' : undefined, redirect: 'manual' });
      assert.equal(res.status, 404, `${method} ${path.slice(0, 30)}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    }
  });

  it('a session cookie too long to be one is 401, not a failed call', async () => {
    const cookie = `hl_session=${'x'.repeat(12_000)}`;
    assertError(await call('GET', '/auth/session', { headers: { cookie } }), 401, 'unauthenticated');
    assertTrpcError(await call('GET', '/trpc/recruiting/candidates.list', { headers: { cookie } }), 401, 'unauthenticated');
    assert.equal((await call('POST', '/auth/logout', { headers: { cookie } })).status, 204);
  });

  it('two candidates PATCHed in parallel to one e-mail (mixed case) give 200 and 409 candidate_exists only', async () => {
    for (let round = 0; round < 8; round++) {
      const [x, y] = await Promise.all([0, 1].map(async () => (await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('race-patch'), name: 'R' } })).body.data.id as string));
      const email = uniqueEmail('race-target');
      const answers = await Promise.all([
        call('PATCH', `/api/v1/candidates/${x}`, { key: org.key, body: { email: email.toUpperCase() } }),
        call('PATCH', `/api/v1/candidates/${y}`, { key: org.key, body: { email } }),
      ]);
      const ok = answers.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, answers.map((r) => `${r.status} ${r.text}`).join('\n'));
      const lost = answers.find((r) => r.status !== 200)!;
      assertError(lost, 409, 'candidate_exists');
      assert.equal(lost.body.error.candidateId, ok[0]!.body.data.id);
    }
  });

  it('an oversized request line on /i, /console and /trpc answers in that surface\'s shape', async () => {
    const long = 'x'.repeat(20_000);
    for (const path of [`/i/${long}`, `/console/${long}`, `/console/candidates?q=${long}`]) {
      const res = await rawRequest('GET', path);
      assert.equal(res.status, 431, path.slice(0, 20));
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, path.slice(0, 20));
    }
    assertTrpcError(await rawRequest('GET', `/trpc/recruiting/candidates.list?input=${long}`), 431, 'headers_too_large');
    const api = await rawRequest('GET', `/api/v1/candidates?x=${long}`);
    assert.equal(api.status, 431);
    assert.equal((api.body as { error: { code: string } }).error.code, 'headers_too_large');
  });
});

describe('media types as RFC 9110 reads them (issue 18 item 5)', () => {
  let org: Org;
  let cookie = '';
  before(async () => {
    org = await newOrg();
    cookie = await sessionCookie(org.organization.id);
  });

  it('a quoted charset, utf8, and any case of names and values are JSON in UTF-8', async () => {
    for (const type of ['Application/JSON; Charset="UTF8"', 'application/json; charset=utf8', 'application/json; charset="UTF-8"', 'APPLICATION/JSON;CHARSET=Utf-8', 'application/json;', 'application/vnd.api+json; charset="utf8"']) {
      const res = await call('POST', '/api/v1/positions', { key: org.key, rawBody: JSON.stringify({ title: `Typed ${type}` }), headers: { 'content-type': type } });
      assert.equal(res.status, 201, `${type}: ${res.text}`);
      const trpc = await call('POST', '/trpc/recruiting/positions.create', { rawBody: JSON.stringify({ title: `tRPC ${type}` }), headers: { 'content-type': type, cookie } });
      assert.equal(trpc.status, 200, `/trpc ${type}: ${trpc.text}`);
    }
    const login = await call('POST', '/auth/login', { rawBody: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }), headers: { 'content-type': 'Application/JSON; Charset="UTF8"' } });
    assertError(login, 401, 'invalid_credentials');
  });

  it('another charset, a malformed parameter or a charset given twice is 415', async () => {
    for (const type of ['application/json; charset=latin1', 'application/json; charset="utf-16"', 'application/json; charset=utf-8; charset=latin1', 'application/json; charset=utf-8 x', 'application/json x']) {
      assertError(await call('POST', '/api/v1/positions', { key: org.key, rawBody: JSON.stringify({ title: 'No' }), headers: { 'content-type': type } }), 415, 'unsupported_media_type');
    }
  });
});

describe('names that can be seen (issue 18 item 6)', () => {
  let org: Org;
  const stack = stackConnections();
  before(async () => {
    org = await newOrg();
  });

  const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\u2800', '\u3164', '\ufeff', '\u200e', '\u200f', ' ', '\u3000', '\u{e0041}', '\u180e', '\u115f'];
  const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e'];
  const VISIBLE = ['a', 'Ж', '中', 'ß', 'ن', 'ש', '😀', '.', '1'];

  /** Every name or title a client sends, each by its own route. */
  const sendName = async (name: string) => {
    const position = await newPosition(org.key);
    return [
      ['candidate name', 'name', await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('name'), name } })],
      ['position title', 'title', await call('POST', '/api/v1/positions', { key: org.key, body: { title: name } })],
      ['position department', 'department', await call('POST', '/api/v1/positions', { key: org.key, body: { title: 'T', department: name } })],
      ['interview title', 'title', await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, title: name, candidate: { email: uniqueEmail('n'), name: 'N' } } })],
      ['interview candidate', 'candidate.name', await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email: uniqueEmail('n'), name } } })],
      ['job description title', 'title', await call('POST', '/api/v1/ai/job-description', { key: org.key, body: { title: name } })],
    ] as const;
  };

  it('a name or title made only of zero-width, format or filler characters is 422', async () => {
    for (const name of ['\u200b', '\u200b\u200c\u200d', '\u2060', '\u00ad', '\u2800', '\u3164', ' \ufeff ', '\u200f\u200e']) {
      for (const [what, path, res] of await sendName(name)) {
        assert.equal(res.status, 422, `${what} ${JSON.stringify(name)}: ${res.text}`);
        assertValidation(res, path);
      }
    }
  });

  it('the bidi embedding and override controls are refused anywhere in names and titles', async () => {
    for (const name of ['Ann\u202eeoJ', '\u202aAnn', 'An\u202cn']) {
      for (const [, path, res] of await sendName(name)) assertValidation(res, path);
    }
  });

  it('RLM, LRM, ZWJ and ZWNJ stay allowed inside a name that has visible characters', async () => {
    for (const name of ['\u200fשרה כהן', 'مريم\u200cمحمدی', 'Zoë\u200d', '\u200eAnn Lee']) {
      for (const [what, , res] of await sendName(name)) assert.ok(res.status === 201 || res.status === 202, `${what} ${JSON.stringify(name)}: ${res.text}`);
    }
  });

  it('a row stored before the rule is still returned by the response schema', async () => {
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('old-name'), name: 'Old' } });
    await stack.db.query('update recruiting.candidates set name = $1 where id = $2', ['\u200b', created.body.data.id]);
    const read = await call('GET', `/api/v1/candidates/${created.body.data.id}`, { key: org.key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.data.name, '\u200b');
    assert.equal((await call('GET', '/api/v1/candidates', { key: org.key })).status, 200);
  });

  it('fuzz, invisible strings: a title is taken exactly when it has a visible character and no bidi override', async () => {
    const char = fc.oneof({ arbitrary: fc.constantFrom(...INVISIBLE), weight: 6 }, { arbitrary: fc.constantFrom(...VISIBLE), weight: 1 }, { arbitrary: fc.constantFrom(...BIDI), weight: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(char, { minLength: 1, maxLength: 12 }), async (chars) => {
        const title = chars.join('');
        const res = await call('POST', '/api/v1/positions', { key: org.key, body: { title } });
        const taken = chars.some((c) => VISIBLE.includes(c)) && !chars.some((c) => BIDI.includes(c));
        if (!taken) return assertValidation(res, 'title');
        assert.equal(res.status, 201, `${JSON.stringify(title)}: ${res.text}`);
        assert.equal(res.body.data.title, title.trim());
      }),
      fuzz,
    );
  });
});

describe('e-mail addresses and the contract (issue 18 item 7)', () => {
  let org: Org;
  let doc: OpenApiDocument & { paths: Record<string, Record<string, any>> };
  const stack = stackConnections();
  before(async () => {
    org = await newOrg();
    doc = (await call('GET', '/api/v1/openapi.json')).body as typeof doc;
  });

  const undeliverable = [`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`, 'a@b-.example.com', 'a@example-.com'];

  it('a local part over 64 characters, a domain label over 63, or a label starting or ending with - is 422', async () => {
    const position = await newPosition(org.key);
    const existing = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('limits'), name: 'L' } });
    for (const email of undeliverable) {
      assertValidation(await call('POST', '/api/v1/candidates', { key: org.key, body: { email, name: 'L' } }), 'email');
      assertValidation(await call('PATCH', `/api/v1/candidates/${existing.body.data.id}`, { key: org.key, body: { email } }), 'email');
      assertValidation(await call('POST', '/api/v1/interviews', { key: org.key, body: { positionId: position.id, candidate: { email, name: 'L' } } }), 'candidate.email');
    }
    assert.equal((await call('POST', '/api/v1/candidates', { key: org.key, body: { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.com`, name: 'At the limits' } })).status, 201);
  });

  it('a row stored before the limits is still returned, and its response validates', async () => {
    const validators = validatorsFor(doc);
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body: { email: uniqueEmail('old-email'), name: 'Old' } });
    const old = `${'o'.repeat(70)}-${unique()}@example.com`;
    await stack.db.query('update recruiting.candidates set email = $1 where id = $2', [old, created.body.data.id]);
    const read = await call('GET', `/api/v1/candidates/${created.body.data.id}`, { key: org.key });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.body.data.email, old);
    validators.assertSuccess(doc.paths['/candidates/{id}']!['get'], 200, read.body, 'GET /candidates/{id}');
  });

  it('the document publishes the rules: non-blank trimmed texts, visible names, no format: email in responses', () => {
    const body = doc.paths['/candidates']!['post'].requestBody.content['application/json'].schema;
    assert.match(body.properties.externalId.pattern, /^\[\^\\u0009-\\u000D/);
    assert.equal(body.properties.name.allOf.length, 2, JSON.stringify(body.properties.name));
    assert.equal(body.properties.email.format, 'email');
    const candidate = doc.components.schemas['Candidate'] as { properties: Record<string, { format?: string; maxLength?: number }> };
    assert.equal(candidate.properties['email']!.format, undefined);
    assert.equal(candidate.properties['email']!.maxLength, 254);
  });
});

describe('webhook URLs that can never be delivered to are refused (issue 18 item 8)', () => {
  let org: Org;
  let receiver: Awaited<ReturnType<typeof startTestServer>>;
  before(async () => {
    org = await newOrg();
    receiver = await startTestServer(() => ({ status: 204 }));
  });

  it('port 0 and control characters inside the URL are 422 on create and PATCH', async () => {
    const created = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: `${receiver.url}/hook`, events: ['*'] } });
    assert.equal(created.status, 201, created.text);
    for (const url of ['https://example.com:0/hook', 'http://127.0.0.1:0/hook', `${receiver.url}/ho\tok`, `${receiver.url}/hook\r\nX-Injected: 1`, `${receiver.url.replace('127', '12\n7')}/hook`, `${receiver.url}/hook\u0000`, `${receiver.url}/hook\u007f`]) {
      assertValidation(await call('POST', '/api/v1/webhooks', { key: org.key, body: { url, events: ['*'] } }), 'url');
      assertValidation(await call('PATCH', `/api/v1/webhooks/${created.body.data.id}`, { key: org.key, body: { url } }), 'url');
    }
    await call('DELETE', `/api/v1/webhooks/${created.body.data.id}`, { key: org.key });
    receiver.server.closeAllConnections();
    await receiver.close();
  });

  it('a URL that fits 2048 characters as sent but not as the URL parser writes it is 422 on url, on create and PATCH', async () => {
    // Loopback (the stack's dev flag allows it): nothing here depends on name resolution.
    const hook = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    assert.equal(hook.status, 201, hook.text);
    // 700 × "é" is 1 400 characters sent, 4 200 once percent-encoded.
    const url = `http://127.0.0.1:9/${'é'.repeat(700)}`;
    for (const res of [
      await call('POST', '/api/v1/webhooks', { key: org.key, body: { url, events: ['*'] } }),
      await call('PATCH', `/api/v1/webhooks/${hook.body.data.id}`, { key: org.key, body: { url } }),
    ]) {
      assertValidation(res, 'url');
      assert.match(res.text, /once written as a URL/);
    }
    await call('DELETE', `/api/v1/webhooks/${hook.body.data.id}`, { key: org.key });
  });

  it('surrounding spaces stay trimmed', async () => {
    const trimmed = await startTestServer(() => ({ status: 204 }));
    try {
      const created = await call('POST', '/api/v1/webhooks', { key: org.key, body: { url: `  ${trimmed.url}/hook  `, events: ['*'] } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.url, `${trimmed.url}/hook`);
      await call('DELETE', `/api/v1/webhooks/${created.body.data.id}`, { key: org.key });
    } finally {
      // A listening server (and the delivery's keep-alive connection) would keep this file's process alive.
      trimmed.server.closeAllConnections();
      await trimmed.close();
    }
  });
});

describe('erasure reaches stored replies at once (issue 18 item 9)', () => {
  it('from the 202 of DELETE /candidates/{id} on, a retry of a POST that created or named the person is 404', async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const recruiting = createRecruitingClient(process.env['RECRUITING_URL']!, process.env['INTERNAL_TOKEN_KEYS']!).forOrganization(org.organization.id);
    const flow = await recruiting.flows.create.mutate({ name: 'Erasure replies', stages: [{ name: 'Screen', kind: 'screen' }] });
    const email = uniqueEmail('erase-replies');
    const requests: [string, string, unknown][] = [
      ['POST', '/api/v1/candidates', { email, name: 'Erased Person' }],
      ['POST', '/api/v1/interviews', { positionId: position.id, candidate: { email } }],
    ];
    const sent = async ([method, path, body]: [string, string, unknown], key: string) => call(method, path, { key: org.key, body, headers: { 'idempotency-key': key } });
    const keys = requests.map(() => `erase-${unique()}`);
    for (const [i, r] of requests.entries()) assert.equal((await sent(r, keys[i]!)).status, 201);
    const candidateId = (await sent(requests[0]!, keys[0]!)).body.data.id as string;
    const enroll: [string, string, unknown] = ['POST', `/api/v1/hiring-flows/${flow.id}/candidates`, { candidateId }];
    const enrollKey = `erase-${unique()}`;
    assert.equal((await sent(enroll, enrollKey)).status, 201);
    const replay = await sent(requests[1]!, keys[1]!);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true', 'replayed before the erasure');

    const erased = await call('DELETE', `/api/v1/candidates/${candidateId}`, { key: org.key });
    assert.equal(erased.status, 202);
    const retries = async (when: string) => {
      for (const [request, key] of [...requests.map((r, i) => [r, keys[i]!] as const), [enroll, enrollKey] as const]) {
        const retry = await sent(request, key);
        assertError(retry, 404, 'not_found');
        assert.doesNotMatch(retry.text, new RegExp(email.replace(/[.+]/g, '\\$&')), `${request[1]} ${when}: the person's e-mail came back`);
      }
    };
    await retries('after the 202');
    // The task's gateway step deletes the voided records: a retry then runs again, and the owning
    // service answers it 404 too (its own record of the key names an erased person).
    const task = erased.body.data.id as string;
    await eventually(async () => (await call('GET', `/api/v1/tasks/${task}`, { key: org.key })).body.data?.status, (status) => status === 'succeeded', 60_000);
    await retries('after the task');
    // The records keep their fingerprints: the same key with another body is still refused as reused.
    const otherBody = await sent(['POST', '/api/v1/candidates', { email: uniqueEmail('other-body'), name: 'Someone Else' }], keys[0]!);
    assertError(otherBody, 422, 'idempotency_key_reused');
  });

  /** An interview answered with distinctive words and evaluated, and its review POST with a fixed Idempotency-Key. */
  const evaluatedInterview = async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const interview = await schedule(org.key, position.id);
    const token = tokenOf(interview.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    const words = `A distinctive answer ${unique()}.`;
    assert.equal((await submitInvite(token, [words, words])).status, 303);
    const evaluation = `/api/v1/interviews/${interview.id}/evaluation`;
    for (let i = 0; i < 100 && (await call('GET', evaluation, { key: org.key })).body.data.status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 200));
    const review = () => call('POST', `${evaluation}/review`, { key: org.key, body: { decision: 'advance', note: 'Strong.' }, headers: { 'idempotency-key': `review-${interview.id}` } });
    const erase = () => call('DELETE', `/api/v1/candidates/${interview.candidate.id}`, { key: org.key });
    return { interview, words: new RegExp(words.replace(/[.]/g, '\\.')), review, erase };
  };

  it('a review\'s stored reply, which names only the interview, is 404 from the 202 on too: never the answers\' text again', async () => {
    const { words, review, erase } = await evaluatedInterview();
    assert.equal((await review()).status, 200);
    const replayed = await review();
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
    assert.match(replayed.text, words, 'the stored reply holds the answer');
    assert.equal((await erase()).status, 202);
    const retry = await review();
    assertError(retry, 404, 'not_found');
    assert.doesNotMatch(retry.text, words);
  });

  it('a review in flight while the DELETE runs stores its reply voided: its retry is 404, never the answers\' text', async () => {
    const { interview, words, review, erase } = await evaluatedInterview();
    // Hold the review inside recruiting (it waits for the evaluation's row) until the DELETE's 202.
    const holder = new pg.Client({ connectionString: testEnv().databaseUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from recruiting.evaluations where interview_id = $1 for update', [interview.id]);
      const inFlight = review();
      const blocked = async () => (await holder.query('select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [(await holder.query('select pg_backend_pid() as pid')).rows[0].pid])).rows[0].n > 0;
      for (let i = 0; i < 200 && !(await blocked()); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(await blocked(), 'the review waits for the evaluation');
      assert.equal((await erase()).status, 202);
      await holder.query('commit');
      const answered = await inFlight;
      assert.equal(answered.status, 200, 'recruiting read the interview before the erasure');
    } finally {
      await holder.end();
    }
    const retry = await review();
    assertError(retry, 404, 'not_found');
    assert.doesNotMatch(retry.text, words);
  });

  it('a refused erasure voids nothing', async () => {
    const org = await newOrg();
    const readWrite = (await newKey(org.organization.id, ['read', 'write'], 1_000_000)).key;
    const idem = `keep-${unique()}`;
    const body = { email: uniqueEmail('kept'), name: 'Kept' };
    const created = await call('POST', '/api/v1/candidates', { key: org.key, body, headers: { 'idempotency-key': idem } });
    assertError(await call('DELETE', `/api/v1/candidates/${created.body.data.id}`, { key: readWrite }), 403, 'insufficient_scope');
    assertError(await call('DELETE', '/api/v1/candidates/cand_0000000000000000000000000', { key: org.key }), 404, 'not_found');
    const replay = await call('POST', '/api/v1/candidates', { key: org.key, body, headers: { 'idempotency-key': idem } });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  });
});

describe('invite form bodies are UTF-8 (issue 18 item 10)', () => {
  it('a form body with invalid UTF-8, as raw bytes or as percent-escapes, is a 400 page and nothing is stored', async () => {
    const org = await newOrg();
    const position = await newPosition(org.key);
    const interview = await schedule(org.key, position.id);
    const token = tokenOf(interview.inviteUrl);
    assert.equal((await startInvite(token)).status, 303);
    const bodies = [
      Buffer.from('answer=a%FFb&answer=fine'),
      Buffer.from('answer=a%ED%A0%80b&answer=fine'),
      Buffer.from('answer=%C3&answer=fine'),
      Buffer.concat([Buffer.from('answer=a'), Buffer.from([0xff]), Buffer.from('b&answer=fine')]),
      Buffer.concat([Buffer.from('answer=caf'), Buffer.from([0xe9]), Buffer.from('&answer=fine')]),
    ];
    for (const body of bodies) {
      const res = await fetch(`${testEnv().gatewayUrl}/i/${token}/submit`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new Uint8Array(body), redirect: 'manual' });
      assert.equal(res.status, 400, body.toString('latin1'));
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    }
    const unchanged = await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key });
    assert.equal(unchanged.body.data.status, 'in_progress', 'nothing of the refused forms was stored');
    assert.equal((await submitInvite(token, ['Ünïcödé answer', 'fine'])).status, 303);
    assert.equal((await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data.status, 'completed');
  });
});
