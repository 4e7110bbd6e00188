import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, startExtraGateway, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { newPosition, schedule } from './interview-helpers.js';

async function sessionCookie() {
  const env = testEnv();
  const res = await call('POST', '/auth/login', { body: { email: env.adminEmail, password: env.adminPassword } });
  assert.equal(res.status, 200, res.text);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

const csp = (res: ApiResponse) => res.headers.get('content-security-policy') ?? '';

describe('security headers (PRODUCT.md §11) on one route of every kind', () => {
  let key = '';
  let cookie = '';
  let inviteUrl = '';
  before(async () => {
    const org = await newOrganizationWithKey(['read', 'write']);
    key = org.key;
    cookie = await sessionCookie();
    inviteUrl = (await schedule(key, (await newPosition(key)).id)).inviteUrl;
  });

  const routes = () =>
    ({
      'api success': () => call('GET', '/api/v1/me', { key }),
      'api error': () => call('GET', '/api/v1/me'),
      'openapi document': () => call('GET', '/api/v1/openapi.json'),
      auth: () => call('GET', '/auth/session', { headers: { cookie } }),
      trpc: () => call('GET', `/trpc/identity/apiKeys.list?input=${encodeURIComponent(JSON.stringify({ limit: 1 }))}`, { headers: { cookie } }),
      invite: () => call('GET', new URL(inviteUrl).pathname),
      'unknown invite': () => call('GET', '/i/no-such-token'),
      console: () => call('GET', '/console/'),
      reference: () => call('GET', '/developers/reference'),
      healthz: () => call('GET', '/healthz'),
      'unknown route': () => call('GET', '/nowhere'),
    }) satisfies Record<string, () => Promise<ApiResponse>>;

  it('every response: X-Content-Type-Options nosniff, a CSP forbidding framing, no HSTS over http', async () => {
    for (const [name, request] of Object.entries(routes())) {
      const res = await request();
      assert.ok(res.status < 500, `${name}: ${res.status} ${res.text.slice(0, 200)}`);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', name);
      assert.match(csp(res), /frame-ancestors 'none'/, name);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', name);
      assert.equal(res.headers.get('strict-transport-security'), null, `${name}: PUBLIC_BASE_URL is http here`);
      assert.equal(res.headers.get('x-powered-by'), null, name);
    }
  });

  it('/api/v1, /auth, /trpc and invite pages are Cache-Control: no-store; invite pages send no referrer', async () => {
    const r = routes();
    for (const name of ['api success', 'api error', 'auth', 'trpc', 'invite', 'unknown invite'] as const) {
      assert.equal((await r[name]()).headers.get('cache-control'), 'no-store', name);
    }
    for (const name of ['invite', 'unknown invite'] as const) assert.equal((await r[name]()).headers.get('referrer-policy'), 'no-referrer', name);
  });

  it('each HTML page has a CSP header of its own kind', async () => {
    const r = routes();
    const consolePolicy = csp(await r.console());
    assert.match(consolePolicy, /script-src 'self'(;|$)/);
    assert.match(consolePolicy, /connect-src 'self'/);
    assert.doesNotMatch(consolePolicy, /unsafe/);
    const invitePolicy = csp(await r.invite());
    assert.match(invitePolicy, /default-src 'none'/);
    assert.match(invitePolicy, /form-action 'self'/);
    assert.match(csp(await r.reference()), /worker-src 'self' blob:/);
    assert.match(csp(await r['api error']()), /default-src 'none'/);
  });

  it('Strict-Transport-Security is sent when PUBLIC_BASE_URL is https', async () => {
    const gateway = await startExtraGateway({ PUBLIC_BASE_URL: 'https://hireloop.example' });
    try {
      const res = await call('GET', '/healthz', { baseUrl: gateway.url });
      assert.match(res.headers.get('strict-transport-security') ?? '', /^max-age=31536000; includeSubDomains/);
    } finally {
      await gateway.child.stop();
    }
  });
});

describe('same-origin check on cookie-authenticated state changes (PRODUCT.md §11)', () => {
  // PUBLIC_BASE_URL is http://localhost:<port>; the tests call the same port as 127.0.0.1, another origin.
  const ours = () => new URL(process.env['PUBLIC_BASE_URL']!).origin;
  const createKey = (cookie: string, headers: Record<string, string>) =>
    call('POST', '/trpc/identity/apiKeys.create', { headers: { cookie, ...headers }, body: { name: 'same-origin test', scopes: ['read'] } });

  it('a cross-origin POST with a valid cookie gets 403 forbidden, by Origin or by Sec-Fetch-Site', async () => {
    const cookie = await sessionCookie();
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { origin: ours().replace('localhost', '127.0.0.1') }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }] as Record<string, string>[]) {
      const res = await createKey(cookie, headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(res.body.error.data.appCode, 'forbidden', JSON.stringify(headers)); // tRPC's error shape on /trpc
    }
    const logout = await call('POST', '/auth/logout', { headers: { cookie, origin: 'https://evil.example' } });
    assert.equal(logout.status, 403);
    assert.equal(logout.body.error.code, 'forbidden');
    assert.equal(logout.body.error.requestId, logout.headers.get('x-request-id'));
    assert.equal((await call('GET', '/auth/session', { headers: { cookie } })).status, 200, 'the refused logout did not end the session');
    const login = await call('POST', '/auth/login', { headers: { origin: 'https://evil.example' }, body: { email: testEnv().adminEmail, password: testEnv().adminPassword } });
    assert.equal(login.status, 403);
  });

  it('same-origin requests, and requests with neither header (not a browser), pass', async () => {
    const cookie = await sessionCookie();
    for (const headers of [{ origin: ours() }, { 'sec-fetch-site': 'same-origin' }, { origin: ours(), 'sec-fetch-site': 'same-origin' }, {}] as Record<string, string>[]) {
      const res = await createKey(cookie, headers);
      assert.equal(res.status, 200, `${JSON.stringify(headers)}: ${res.text}`);
    }
  });

  it('reads are not checked: a cross-origin GET is answered (the browser keeps the body from the other page)', async () => {
    const cookie = await sessionCookie();
    assert.equal((await call('GET', '/auth/session', { headers: { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status, 200);
  });
});
