import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { call, newOrganizationWithKey, startExtraGateway, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { assertError, unique } from './api-assertions.js';
import { newPosition } from './interview-helpers.js';

/**
 * What a customer's security team probes from PRODUCT.md §2–§4, §6 and §11 that the surface tests
 * do not already cover: HEAD, spellings of one path under one Idempotency-Key, raw-socket answers,
 * the cookie under an https origin, session fixation, traversal in the static assets, methods.
 */

/**
 * Writes raw bytes to the gateway and returns everything it answers until it closes the
 * connection (every request here asks for `Connection: close` or is one the server drops).
 */
function raw(request: string): Promise<string> {
  const { hostname, port } = new URL(testEnv().gatewayUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(request);
  });
}

const headerOf = (response: string, name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(response.split('\r\n\r\n')[0]!)?.[1];

describe('HEAD on /api/v1 is GET without the body (RFC 9110 §9.3.2)', () => {
  let key = '';
  before(async () => {
    key = (await newOrganizationWithKey(['read', 'write'])).key;
  });

  it('the status and headers of the GET, no body; never a blanket 204', async () => {
    const position = await newPosition(key);
    const cases: [string, number][] = [
      ['/api/v1/me', 200],
      ['/api/v1/positions', 200],
      [`/api/v1/positions/${position.id}`, 200],
      ['/api/v1/positions/pos_00000000000000000000000', 404],
      ['/api/v1/positions?limit=abc', 422],
      ['/api/v1/nowhere', 404],
      ['/api/v1/audit-events', 403], // the key has no admin scope
    ];
    for (const [path, status] of cases) {
      const get = await call('GET', path, { key });
      const head = await call('HEAD', path, { key });
      assert.equal(get.status, status, `GET ${path}: ${get.text.slice(0, 200)}`);
      assert.equal(head.status, status, `HEAD ${path}`);
      assert.equal(head.text, '', `HEAD ${path} has no body`);
      assert.equal(head.headers.get('content-type'), get.headers.get('content-type'), `HEAD ${path}`);
      assert.ok(head.headers.get('content-length'), `HEAD ${path} says how long the GET's body is`);
      // An error body holds its own request id, so only a 200's length is the same byte for byte.
      if (status === 200) assert.equal(head.headers.get('content-length'), get.headers.get('content-length'), `HEAD ${path}`);
      assert.ok(head.headers.get('x-ratelimit-limit'), `HEAD ${path} draws from the bucket like the GET`);
    }
    assert.equal((await call('HEAD', '/api/v1/me')).status, 401, 'HEAD needs a key too');
  });

  it('a 204 carries no Content-Length (RFC 9110 §8.6)', async () => {
    const { key: admin } = await newOrganizationWithKey(['read', 'write', 'admin']);
    const hook = await call('POST', '/api/v1/webhooks', { key: admin, body: { url: 'http://127.0.0.1:9/hook', events: ['*'] } });
    assert.equal(hook.status, 201, hook.text);
    const deleted = await call('DELETE', `/api/v1/webhooks/${hook.body.data.id}`, { key: admin });
    assert.equal(deleted.status, 204, deleted.text);
    assert.equal(deleted.headers.get('content-length'), null);
  });
});

describe('Idempotency-Key is per route, however the path is spelled (PRODUCT.md §6)', () => {
  it('/positions, /positions/, /POSITIONS and /./positions are one request: one position, then replays', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write']);
    const headers = { 'idempotency-key': `spell-${unique()}` };
    const body = { title: 'Spelled four ways' };
    const first = await call('POST', '/api/v1/positions', { key, headers, body });
    assert.equal(first.status, 201, first.text);
    for (const path of ['/api/v1/positions/', '/api/v1/POSITIONS', '/api/v1/./positions', '/api/v1/positions?']) {
      // fetch would resolve `/./`; the raw path goes out as written.
      const res = path.includes('/./')
        ? await rawPost(path, key, headers['idempotency-key'], JSON.stringify(body))
        : await call('POST', path, { key, headers, body });
      assert.equal(res.status, 201, `${path}: ${res.text}`);
      assert.equal(res.headers.get('idempotent-replayed'), 'true', path);
      assert.equal(JSON.parse(res.text).data.id, first.body.data.id, path);
    }
    const list = await call('GET', '/api/v1/positions', { key });
    assert.equal(list.body.data.length, 1, 'one position was made');
  });

  it('two Idempotency-Key headers are 422, not one key made of both', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write']);
    const { host } = new URL(testEnv().gatewayUrl);
    const body = JSON.stringify({ title: 'Two keys' });
    const answer = await raw(
      `POST /api/v1/positions HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: a\r\nIdempotency-Key: b\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    assert.match(answer, /^HTTP\/1\.1 422 /, answer.slice(0, 200));
    assert.match(answer, /"path":"Idempotency-Key"/);
    assert.equal((await call('GET', '/api/v1/positions', { key })).body.data.length, 0);
  });

  it('path parameters keep their case: another id under the same key is another request', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write', 'admin']);
    const idem = { 'idempotency-key': `ids-${unique()}` };
    // Both are well-formed ids of no webhook: each is looked up, neither replays the other's 404.
    const a = await call('POST', '/api/v1/webhooks/wh_00000000000000000000000a/test', { key, headers: idem, body: {} });
    const b = await call('POST', '/api/v1/webhooks/wh_00000000000000000000000A/test', { key, headers: idem, body: {} });
    assertError(a, 404, 'not_found');
    assertError(b, 404, 'not_found');
    assert.equal(b.headers.get('idempotent-replayed'), null);
  });
});

describe('query parameters on routes that take a body are refused, not ignored (PRODUCT.md §5)', () => {
  it('POST and PATCH with a query: 422 naming each parameter, nothing written, nothing stored under the Idempotency-Key', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write']);
    const idem = { 'idempotency-key': `query-${unique()}` };
    const refused = await call('POST', '/api/v1/positions?status=closed&dryRun=1', { key, headers: idem, body: { title: 'Query' } });
    assertError(refused, 422, 'validation_failed');
    assert.deepEqual(refused.body.error.details.map((d: { path: string }) => d.path), ['status', 'dryRun']);
    assert.equal((await call('GET', '/api/v1/positions', { key })).body.data.length, 0, 'nothing was created');
    const retry = await call('POST', '/api/v1/positions', { key, headers: idem, body: { title: 'Query' } });
    assert.equal(retry.status, 201, 'the fixed retry runs: the refusal was not stored as the key\'s answer');
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assertError(await call('PATCH', `/api/v1/positions/${retry.body.data.id}?title=x`, { key, body: { title: 'Patched' } }), 422, 'validation_failed');
    assert.equal((await call('GET', `/api/v1/positions/${retry.body.data.id}`, { key })).body.data.title, 'Query');
  });

  it('the order of answers holds: an unknown route is 404 and a missing scope 403 before the query is looked at', async () => {
    const { key } = await newOrganizationWithKey(['read']);
    assertError(await call('POST', '/api/v1/nowhere?x=1', { key, body: {} }), 404, 'route_not_found');
    assertError(await call('POST', '/api/v1/positions?x=1', { key, body: { title: 'No scope' } }), 403, 'insufficient_scope');
  });
});

/** A POST written to the socket as is (fetch and undici resolve dot segments first). */
async function rawPost(path: string, key: string, idempotencyKey: string, body: string) {
  const { host } = new URL(testEnv().gatewayUrl);
  const answer = await raw(
    `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nIdempotency-Key: ${idempotencyKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
  const [head, text = ''] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head!)?.[1]);
  return { status, text, headers: { get: (name: string) => headerOf(answer, name) ?? null } };
}

describe('answers written before routing carry the headers of every response (PRODUCT.md §3, §11)', () => {
  it('a request the HTTP parser refuses: 400 in its surface\'s error shape, with X-Request-Id and nosniff', async () => {
    const cases: [string, RegExp][] = [
      ['GARBAGE\r\n\r\n', /^application\/json/],
      ['GET /api/v1/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', /^application\/json/],
      ['GET /console/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', /^text\/html/],
    ];
    for (const [request, contentType] of cases) {
      const answer = await raw(request);
      assert.match(answer, /^HTTP\/1\.1 400 /, JSON.stringify(request));
      assert.match(headerOf(answer, 'X-Request-Id') ?? '', /^req_/, JSON.stringify(request));
      assert.equal(headerOf(answer, 'X-Content-Type-Options'), 'nosniff', JSON.stringify(request));
      assert.match(headerOf(answer, 'Content-Type') ?? '', contentType, JSON.stringify(request));
      if (contentType.source.includes('json')) {
        const body = JSON.parse(answer.split('\r\n\r\n')[1]!) as { error: { code: string; requestId: string } };
        assert.equal(body.error.code, 'invalid_json', JSON.stringify(request));
        assert.equal(body.error.requestId, headerOf(answer, 'X-Request-Id'), 'the body names the request id of its header');
      }
    }
  });

  it('the 431 HTML page of /console and /i has a CSP header forbidding framing', async () => {
    const filler = 'x'.repeat(20_000);
    for (const path of ['/console/', '/i/some-token']) {
      const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nX-Filler: ${filler}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 431 /, path);
      assert.match(headerOf(answer, 'Content-Type') ?? '', /^text\/html/, path);
      assert.match(headerOf(answer, 'Content-Security-Policy') ?? '', /default-src 'none'.*frame-ancestors 'none'/, path);
      assert.equal(headerOf(answer, 'X-Content-Type-Options'), 'nosniff', path);
    }
  });
});

/** A console user of an organization of its own. */
async function newUser() {
  const { organization } = await newOrganizationWithKey(['read']);
  const email = `sec-${unique()}@example.com`;
  const password = `pw-${unique()}-${unique()}`;
  await testIdentity().system.users.create.mutate({ organizationId: organization.id, email, name: 'Sec', password });
  return { email, password };
}

describe('console session cookie (PRODUCT.md §11)', () => {

  it('is __Host-, Secure, HttpOnly and SameSite=Lax when PUBLIC_BASE_URL is https, and a plain hl_session is not read there', async () => {
    const user = await newUser();
    const gateway = await startExtraGateway({ PUBLIC_BASE_URL: 'https://hireloop.example' });
    try {
      const login = await call('POST', '/auth/login', { baseUrl: gateway.url, body: user });
      assert.equal(login.status, 200, login.text);
      const cookie = login.headers.get('set-cookie') ?? '';
      // The prefix: a browser keeps it only Secure, Path=/ and host-only, so a sibling subdomain cannot plant one.
      assert.match(cookie, /^__Host-hl_session=/);
      assert.doesNotMatch(cookie, /; Domain=/i);
      for (const flag of [/; Secure(;|$)/, /; HttpOnly(;|$)/, /; SameSite=Lax(;|$)/, /; Path=\/(;|$)/]) assert.match(cookie, flag);
      const token = cookie.split(';')[0]!.split('=').slice(1).join('=');
      assert.equal((await call('GET', '/auth/session', { baseUrl: gateway.url, headers: { cookie: cookie.split(';')[0]! } })).status, 200);
      // A cookie without the prefix (one a sibling subdomain could set) is no session there.
      assertError(await call('GET', '/auth/session', { baseUrl: gateway.url, headers: { cookie: `hl_session=${token}` } }), 401, 'unauthenticated');
      const logout = await call('POST', '/auth/logout', { baseUrl: gateway.url, headers: { cookie: cookie.split(';')[0]! } });
      assert.equal(logout.status, 204);
      assert.match(logout.headers.get('set-cookie') ?? '', /^__Host-hl_session=;.*; Secure/);
    } finally {
      await gateway.child.stop();
    }
  });

  it('no fixation: a cookie the browser already holds is never adopted, login issues a fresh one, logout kills it', async () => {
    const user = await newUser();
    const planted = 'hl_session=attacker-chosen-value';
    const login = await call('POST', '/auth/login', { body: user, headers: { cookie: planted } });
    assert.equal(login.status, 200, login.text);
    const issued = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    assert.notEqual(issued, planted);
    assert.match(issued, /^hl_session=[A-Za-z0-9_-]{40,}$/, 'a long random token');
    assertError(await call('GET', '/auth/session', { headers: { cookie: planted } }), 401, 'unauthenticated');
    const second = (await call('POST', '/auth/login', { body: user })).headers.get('set-cookie')!.split(';')[0]!;
    assert.notEqual(second, issued, 'every login gets its own token');
    assert.equal((await call('POST', '/auth/logout', { headers: { cookie: issued } })).status, 204);
    assertError(await call('GET', '/auth/session', { headers: { cookie: issued } }), 401, 'unauthenticated');
    assert.equal((await call('GET', '/auth/session', { headers: { cookie: second } })).status, 200, 'the other session lives on');
  });
});

describe('methods, traversal and CORS on every surface', () => {
  it('a method a route does not have is route_not_found in the surface\'s shape (PRODUCT.md §3), never a 5xx: 405 with Allow on /api/v1 (CLARIFICATIONS P1), 404 on /auth', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write', 'admin']);
    for (const [method, path, allow] of [['PUT', '/api/v1/candidates', 'GET, HEAD, POST'], ['DELETE', '/api/v1/me', 'GET, HEAD'], ['PATCH', '/api/v1/events', 'GET, HEAD'], ['OPTIONS', '/api/v1/me', 'GET, HEAD']] as const) {
      const res = await call(method, path, { key });
      assertError(res, 405, 'route_not_found');
      assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    }
    for (const [method, path] of [['GET', '/auth/login'], ['GET', '/auth/logout'], ['PUT', '/auth/logout'], ['DELETE', '/auth/session']] as const) {
      assertError(await call(method, path), 404, 'route_not_found');
    }
  });

  it('HEAD on /trpc is the GET without its body: an unknown procedure is no 204', async () => {
    const login = await call('POST', '/auth/login', { body: await newUser() });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const input = `?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`;
    for (const [path, status] of [[`/trpc/identity/apiKeys.list${input}`, 200], ['/trpc/identity/no.such.procedure', 404], ['/trpc/recruiting/candidates.list?input=%7B%22limit%22%3A0%7D', 400]] as const) {
      const get = await call('GET', path, { headers: { cookie } });
      const head = await call('HEAD', path, { headers: { cookie } });
      assert.equal(get.status, status, `GET ${path}: ${get.text.slice(0, 200)}`);
      assert.equal(head.status, status, `HEAD ${path}`);
      assert.equal(head.text, '', `HEAD ${path}`);
    }
  });

  it('no CORS anywhere: a preflight from another origin gets no Access-Control-Allow-* header', async () => {
    const preflight = { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    for (const path of ['/api/v1/me', '/api/v1/candidates', '/auth/login', '/trpc/identity/apiKeys.create', '/api/v1/openapi.json']) {
      const res = await call('OPTIONS', path, { headers: preflight });
      assert.ok(res.status < 500, `${path}: ${res.status}`);
      res.headers.forEach((_value, name) => assert.doesNotMatch(name, /^access-control-/, `${path}: ${name}`));
    }
  });

  it('no path leaves /console/assets or /developers: traversal, encoded or not, is a 404 page', async () => {
    const paths = [
      '/console/assets/../../package.json', '/console/assets/..%2f..%2fpackage.json', '/console/assets/%2e%2e/%2e%2e/package.json',
      '/console/assets/..%5c..%5cpackage.json', '/console/..%2f..%2f..%2fpackage.json', '/console/assets/%2e%2e%2findex.html',
      '/developers/assets/..%2f..%2fpackage.json', '/developers/assets/../../../package.json', '/developers/..%2fchangelog',
    ];
    for (const path of paths) {
      const { host } = new URL(testEnv().gatewayUrl);
      const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 404 /, `${path}: ${answer.slice(0, 100)}`);
      assert.doesNotMatch(answer, /"workspaces"|"name": "hireloop"/, path);
    }
  });

  it('a redirect never leaves the origin: /console and / point at paths of ours', async () => {
    for (const path of ['/console', '/console?next=https://evil.example', '/']) {
      const res = await call('GET', path);
      assert.equal(res.status, 302, path);
      assert.match(res.headers.get('location') ?? '', /^\/[a-z]/, path);
    }
  });
});

describe('rate-limit headers (PRODUCT.md §4, CLARIFICATIONS "Rate-limit headers")', () => {
  it('on every answer of a verified key, errors included; none on a 401 (no bucket)', async () => {
    const { key } = await newOrganizationWithKey(['read']);
    for (const res of [await call('GET', '/api/v1/nowhere', { key }), await call('GET', '/api/v1/candidates?limit=0', { key }), await call('GET', '/api/v1/audit-events', { key })]) {
      assert.ok(res.status >= 400 && res.status < 500, res.text);
      assert.equal(res.headers.get('ratelimit-policy'), '"default";q=120;w=60', res.text);
      assert.match(res.headers.get('ratelimit') ?? '', /^"default";r=\d+;t=\d+$/);
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.match(res.headers.get(name) ?? '', /^\d+$/, name);
    }
    const revoked = await newOrganizationWithKey(['read']);
    await testIdentity().forOrganization(revoked.organization.id).apiKeys.revoke.mutate({ id: revoked.keyId });
    // One character changed (a key that already ends in x must change too: 1 in 62 did not).
    const tampered = `${key.slice(0, -1)}${key.endsWith('x') ? 'y' : 'x'}`;
    const refused = { 'no key': await call('GET', '/api/v1/me'), 'a tampered key': await call('GET', '/api/v1/me', { key: tampered }), 'a revoked key': await call('GET', '/api/v1/me', { key: revoked.key }) };
    for (const [what, res] of Object.entries(refused)) {
      assert.equal(res.status, 401, what);
      for (const name of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) assert.equal(res.headers.get(name), null, `${what}: ${name}`);
    }
  });
});
