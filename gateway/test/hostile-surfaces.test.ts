import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { CONTENT_ENCODINGS, CONTENT_TYPES, NASTY_BODIES, NASTY_PATH_SEGMENTS, NASTY_QUERY_VALUES, NASTY_VALUES } from './hostile/corpus.js';
import { send, validatorsFor, type HostileRequest, type OpenApiDocument, type SentResponse } from './hostile/api-requests.js';
import { unique } from './api-assertions.js';

/**
 * Issue 7's corpus against the other public surfaces, each checked for its own error shape
 * (CLARIFICATIONS "Errors by surface"): /auth the JSON envelope, /trpc tRPC's shape with no
 * foreign message, /i and /console HTML pages. Never a 5xx anywhere.
 */
/** `..` would leave the surface before the request is sent (fetch normalises URLs). */
const SEGMENTS = NASTY_PATH_SEGMENTS.filter((s) => !['..', '%2e%2e'].includes(s));

/** Values small enough for a URL: past Node's 16 KiB header limit the answer is 431 (tested on its own below). */
const IN_URL = NASTY_VALUES.filter((v) => (JSON.stringify(v) ?? '').length < 3000);

describe('hostile input on /auth, /trpc, /i and /console (issue 7)', () => {
  let validators: ReturnType<typeof validatorsFor>;
  let cookie: string;
  let inviteToken: string;
  const baseUrl = () => testEnv().gatewayUrl;
  const json = { 'content-type': 'application/json' };

  before(async () => {
    validators = validatorsFor((await call('GET', '/api/v1/openapi.json')).body as unknown as OpenApiDocument);
    // A console user of an organization of its own, so the run changes nothing another test reads.
    const { organization, key } = await newOrganizationWithKey(['read', 'write'], 1_000_000);
    const email = `hostile-${unique()}@example.com`;
    const password = `pw-${unique()}-${unique()}`;
    await testIdentity().system.users.create.mutate({ organizationId: organization.id, email, name: 'Hostile', password });
    const login = await fetch(`${baseUrl()}/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email, password }) });
    assert.equal(login.status, 200, await login.text());
    cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const position = await call('POST', '/api/v1/positions', { key, body: { title: 'Hostile surfaces' } });
    const interview = await call('POST', '/api/v1/interviews', { key, body: { candidate: { email: `hostile-s-${unique()}@example.com`, name: 'S' }, positionId: position.body.data.id } });
    assert.equal(interview.status, 201, interview.text);
    inviteToken = new URL(interview.body.data.inviteUrl as string).pathname.split('/').pop()!;
  });

  async function each(requests: HostileRequest[], check: (req: HostileRequest, res: SentResponse) => void) {
    for (const req of requests) {
      const res = await send(baseUrl(), req);
      assert.ok(res.status < 500, `${req.label}: ${res.status} ${res.text.slice(0, 300)}`);
      check(req, res);
    }
    console.log(`hostile-surfaces: ${requests.length} cases`);
  }

  /** Bodies for a JSON route: the raw corpus, every content type and encoding, nasty field values. */
  function jsonBodies(method: string, url: string, fields: string[], headers: Record<string, string> = {}): HostileRequest[] {
    const out: HostileRequest[] = [];
    const valid = Buffer.from(JSON.stringify(Object.fromEntries(fields.map((f) => [f, `x-${unique()}`]))));
    for (const b of NASTY_BODIES) out.push({ label: `${method} ${url} ${b.name}`, method, url, headers: { ...headers, ...json }, body: b.bytes });
    for (const type of CONTENT_TYPES) {
      for (const encoding of CONTENT_ENCODINGS) {
        const h: Record<string, string> = { ...headers, 'content-type': type };
        if (encoding) h['content-encoding'] = encoding;
        out.push({ label: `${method} ${url} ${type} ${encoding ?? ''}`, method, url, headers: h, body: valid });
      }
    }
    for (const field of fields) {
      for (const v of NASTY_VALUES) {
        const body = Object.fromEntries(fields.map((f) => [f, f === field ? v : `x-${unique()}@example.com`]));
        out.push({ label: `${method} ${url} ${field}=${JSON.stringify(v).slice(0, 40)}`, method, url, headers: { ...headers, ...json }, body: Buffer.from(JSON.stringify(body)) });
      }
    }
    return out;
  }

  it('/auth answers the JSON envelope', async () => {
    const requests = [
      ...jsonBodies('POST', '/auth/login', ['email', 'password']),
      ...SEGMENTS.map((s) => ({ label: `GET /auth/${s}`, method: 'GET', url: `/auth/${s}`, headers: {} })),
      ...['a\u0000', '%ff', 'x'.repeat(3000), '\u00e9'].flatMap((c) => [
        { label: `GET /auth/session cookie ${c.slice(0, 20)}`, method: 'GET', url: '/auth/session', headers: { cookie: `hl_session=${c}` } },
        { label: `POST /auth/logout cookie ${c.slice(0, 20)}`, method: 'POST', url: '/auth/logout', headers: { cookie: `hl_session=${c}` } },
      ]).filter((r) => !r.headers.cookie.includes('\u0000')),
    ];
    await each(requests, (req, res) => {
      if (res.status < 400) return;
      validators.assertError(res.body, res.headers.get('x-request-id'), req.label);
    });
  });

  it('/auth: OPTIONS is route_not_found in the envelope, as any other method a path does not answer (not Express\'s own 200)', async () => {
    for (const url of ['/auth/login', '/auth/logout', '/auth/session']) {
      const res = await send(baseUrl(), { label: `OPTIONS ${url}`, method: 'OPTIONS', url, headers: {} });
      assert.equal(res.status, 404, `OPTIONS ${url}: ${res.status} ${res.text.slice(0, 200)}`);
      validators.assertError(res.body, res.headers.get('x-request-id'), `OPTIONS ${url}`);
      assert.equal((res.body as { error: { code: string } }).error.code, 'route_not_found');
    }
  });

  it('/trpc keeps tRPC\'s error shape, our code in data, and no foreign message', async () => {
    const session = { cookie };
    const requests: HostileRequest[] = [
      ...jsonBodies('POST', '/trpc/recruiting/candidates.create', ['email', 'name'], session),
      ...jsonBodies('POST', '/trpc/recruiting/positions.create', ['title', 'description'], session),
      ...jsonBodies('POST', '/trpc/integrations/webhooks.create', ['url', 'description'], session),
      ...NASTY_QUERY_VALUES.map((v) => ({ label: `GET candidates.list?input=${v.slice(0, 30)}`, method: 'GET', url: `/trpc/recruiting/candidates.list?input=${v}`, headers: session })),
      ...IN_URL.map((v) => ({ label: `GET candidates.list limit=${JSON.stringify(v).slice(0, 30)}`, method: 'GET', url: `/trpc/recruiting/candidates.list?input=${encodeURIComponent(JSON.stringify({ limit: v }) ?? '')}`, headers: session })),
      ...IN_URL.map((v) => ({ label: `GET candidates.list email=${JSON.stringify(v).slice(0, 30)}`, method: 'GET', url: `/trpc/recruiting/candidates.list?input=${encodeURIComponent(JSON.stringify({ email: v }) ?? '').replace(/%ED%A0%80|%EF%BF%BD/g, '%ed%a0%80')}`, headers: session })),
      ...SEGMENTS.flatMap((s) => [
        { label: `GET /trpc/identity/${s}`, method: 'GET', url: `/trpc/identity/${s}`, headers: session },
        { label: `GET /trpc/${s}/x`, method: 'GET', url: `/trpc/${s}/x`, headers: session },
        { label: `GET /trpc/recruiting/candidates.get?input=${s}`, method: 'GET', url: `/trpc/recruiting/candidates.get?input=${encodeURIComponent(JSON.stringify({ id: s }))}`, headers: session },
      ]),
    ];
    await each(requests, (req, res) => {
      if (res.status < 400) return;
      assert.ok(res.body && typeof res.body === 'object', `${req.label}: ${res.status} without a JSON body: ${res.text.slice(0, 300)}`);
      const shapes = (Array.isArray(res.body) ? res.body : [res.body]) as { error?: { message?: unknown; data?: Record<string, unknown> } }[];
      for (const shape of shapes) {
        assert.equal(typeof shape.error?.message, 'string', `${req.label}: not tRPC's error shape: ${res.text.slice(0, 300)}`);
        assert.equal(typeof shape.error?.data?.['code'], 'string', `${req.label}: no tRPC code in data: ${res.text.slice(0, 300)}`);
        assert.equal(shape.error?.data?.['stack'], undefined, `${req.label}: a stack reached the client`);
        assert.doesNotMatch(String(shape.error?.message), /select |insert |postgres|violates|syntax|Unexpected token|at .+\.[jt]s:\d/i, `${req.label}: a foreign message reached the client`);
      }
    });
  });

  it('/trpc: a service\'s refusal that another service passes on keeps its status (an unknown candidate\'s erasure is 404, not 500)', async () => {
    // Integrations asks recruiting to erase; recruiting's 404 was answered as a 500 (found by a black-box run).
    const res = await fetch(`${baseUrl()}/trpc/integrations/erasure.start`, { method: 'POST', headers: { ...json, cookie }, body: JSON.stringify({ candidateId: 'cand_00VcQvCO7stnPxL0sgdy000' }) });
    const body = (await res.json()) as { error: { data: { code: string; httpStatus: number; appCode: string } } };
    assert.equal(res.status, 404, JSON.stringify(body));
    assert.deepEqual([body.error.data.code, body.error.data.httpStatus, body.error.data.appCode], ['NOT_FOUND', 404, 'not_found']);
  });

  it('/trpc: bytes that are not UTF-8 are refused, not decoded with replacement characters', async () => {
    const session = { cookie };
    const appCodeOf = (res: SentResponse) => (res.body as { error?: { data?: { appCode?: unknown } } }).error?.data?.appCode;
    for (const query of ['%ff', encodeURIComponent(JSON.stringify({ email: 'a' })).replace('a', '%ff'), encodeURIComponent(JSON.stringify({ email: 'a' })).replace('a', '%ed%a0%80')]) {
      const res = await send(baseUrl(), { label: query, method: 'GET', url: `/trpc/recruiting/candidates.list?input=${query}`, headers: session });
      assert.equal(res.status, 422, `?input=${query}: ${res.text.slice(0, 300)}`);
      assert.equal(appCodeOf(res), 'validation_failed', res.text.slice(0, 300));
    }
    const latin1 = Buffer.concat([Buffer.from('{"email":"b'), Buffer.from([0xe9, 0xff]), Buffer.from(`-${unique()}@example.com","name":"N"}`)]);
    const res = await send(baseUrl(), { label: 'latin-1 body', method: 'POST', url: '/trpc/recruiting/candidates.create', headers: { ...session, ...json }, body: latin1 });
    assert.equal(res.status, 400, res.text.slice(0, 300));
    assert.equal(appCodeOf(res), 'invalid_json', res.text.slice(0, 300));
  });

  it('headers past the server\'s limit: 431 in the surface\'s shape, not a bare answer', async () => {
    const huge = { 'x-filler': 'x'.repeat(20_000) };
    const api = await send(baseUrl(), { label: 'api', method: 'GET', url: '/api/v1/candidates', headers: huge });
    assert.equal(api.status, 431);
    assert.match(api.headers.get('content-type') ?? '', /^application\/json/);
    validators.assertError(api.body, api.headers.get('x-request-id'), 'GET /api/v1 with 20 KB of headers');
    assert.equal((api.body as { error: { code: string } }).error.code, 'headers_too_large');
    const trpc = await send(baseUrl(), { label: 'trpc', method: 'GET', url: '/trpc/recruiting/candidates.list', headers: { ...huge, cookie } });
    assert.equal(trpc.status, 431);
    assert.equal((trpc.body as { error: { data: { appCode: string } } }).error.data.appCode, 'headers_too_large');
    for (const url of ['/console/', `/i/${inviteToken}`]) {
      const page = await send(baseUrl(), { label: url, method: 'GET', url, headers: huge });
      assert.equal(page.status, 431, url);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/, url);
    }
  });

  it('/i and /console answer HTML pages', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const requests: HostileRequest[] = [
      // The bare /i (no token) is the invite surface too (found by a black-box run: it was JSON).
      { label: 'GET /i', method: 'GET', url: '/i', headers: {} },
      { label: 'POST /i', method: 'POST', url: '/i', headers: form, body: Buffer.from('') },
      ...SEGMENTS.flatMap((s) => [
        { label: `GET /i/${s}`, method: 'GET', url: `/i/${s}`, headers: {} },
        { label: `POST /i/${s}/start`, method: 'POST', url: `/i/${s}/start`, headers: form, body: Buffer.from('') },
        { label: `GET /console/${s}`, method: 'GET', url: `/console/${s}`, headers: {} },
      ]),
      ...['a%00b', '%ff', '%ed%a0%80', 'x'.repeat(2000), '%00', ''].flatMap((a) => [
        { label: `POST /i/<token>/submit answer=${a.slice(0, 20)}`, method: 'POST', url: `/i/${inviteToken}/submit`, headers: form, body: Buffer.from(`answer=${a}&answer=${a}`) },
        { label: `GET /i/<token>?x=${a.slice(0, 20)}`, method: 'GET', url: `/i/${inviteToken}?x=${a}`, headers: {} },
      ]),
      ...NASTY_BODIES.map((b) => ({ label: `POST /i/<token>/submit ${b.name}`, method: 'POST', url: `/i/${inviteToken}/submit`, headers: form, body: b.bytes })),
      ...CONTENT_TYPES.map((t) => ({ label: `POST /i/<token>/submit ${t}`, method: 'POST', url: `/i/${inviteToken}/submit`, headers: { 'content-type': t }, body: Buffer.from('answer=%00') })),
      ...['application/x-www-form-urlencoded; charset=latin1', 'application/x-www-form-urlencoded; charset=bogus'].map((t) => ({ label: `POST submit ${t}`, method: 'POST', url: `/i/${inviteToken}/submit`, headers: { 'content-type': t }, body: Buffer.from('answer=x') })),
    ];
    await each(requests, (req, res) => {
      if (res.status < 400) return;
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `${req.label}: ${res.status} is not an HTML page: ${res.text.slice(0, 200)}`);
    });
  });
});
