import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, testEnv } from '@hireloop/devstack/testing';

async function login() {
  const env = testEnv();
  const res = await call('POST', '/auth/login', { body: { email: env.adminEmail, password: env.adminPassword } });
  assert.equal(res.status, 200, res.text);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0]! };
}

describe('session routes for internal frontends', () => {
  it('a bearer token on /auth and /trpc is 401 bearer_not_accepted', async () => {
    const { key } = await newOrganizationWithKey(['read', 'write', 'admin']);
    for (const [method, path] of [['POST', '/auth/login'], ['POST', '/auth/logout'], ['GET', '/auth/session'], ['GET', '/trpc/identity/apiKeys.list'], ['POST', '/trpc/identity/apiKeys.create'], ['GET', '/console/']] as const) {
      const res = await call(method, path, { key, body: method === 'POST' ? {} : undefined });
      assert.equal(res.status, 401, `${method} ${path}`);
      // Each surface in its own error shape: tRPC's on /trpc, a page on /console, the envelope on /auth.
      if (path.startsWith('/trpc/')) assert.equal(res.body.error.data.appCode, 'bearer_not_accepted', `${method} ${path}`);
      else if (path.startsWith('/console')) assert.match(res.headers.get('content-type') ?? '', /^text\/html/, `${method} ${path}`);
      else assert.equal(res.body.error.code, 'bearer_not_accepted', `${method} ${path}`);
    }
  });

  it('login sets an HttpOnly, SameSite=Lax session cookie that opens the services\' routers', async () => {
    const { setCookie, cookie, res } = await login();
    assert.match(setCookie, /hl_session=/);
    assert.match(setCookie, /HttpOnly/i);
    assert.match(setCookie, /SameSite=Lax/i);
    assert.equal(res.body.data.user.organization.id, testEnv().demoOrgId);
    const input = encodeURIComponent(JSON.stringify({ limit: 5 }));
    const keys = await call('GET', `/trpc/identity/apiKeys.list?input=${input}`, { headers: { cookie } });
    assert.equal(keys.status, 200, keys.text);
    assert.ok(Array.isArray(keys.body.result.data.items));
  });

  it('a console user cannot call the platform-only procedures', async () => {
    const { cookie } = await login();
    const res = await call('POST', '/trpc/identity/apiKeys.authenticate', { headers: { cookie }, body: { key: 'hl_x' } });
    assert.equal(res.status, 403);
  });

  it('keys created in the console belong to the session\'s organization, whatever the input says', async () => {
    const { cookie } = await login();
    const created = await call('POST', '/trpc/identity/apiKeys.create', { headers: { cookie }, body: { name: 'console key', scopes: ['read'], organizationId: 'org_other' } });
    assert.equal(created.status, 200, created.text);
    const me = await call('GET', '/api/v1/me', { key: created.body.result.data.key });
    assert.equal(me.body.data.organization.id, testEnv().demoOrgId);
  });

  it('wrong password is 401 invalid_credentials; no cookie is 401; logout ends the session', async () => {
    const wrong = await call('POST', '/auth/login', { body: { email: testEnv().adminEmail, password: 'not-the-password' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_credentials');
    assert.equal((await call('GET', '/auth/session')).status, 401);

    const { cookie } = await login();
    assert.equal((await call('GET', '/auth/session', { headers: { cookie } })).status, 200);
    assert.equal((await call('POST', '/auth/logout', { headers: { cookie } })).status, 204);
    assert.equal((await call('GET', '/auth/session', { headers: { cookie } })).status, 401);
  });
});

describe('service-to-service auth', () => {
  it('a service called without an internal token, or with a forged one, refuses', async () => {
    const { identityUrl } = testEnv();
    const none = await fetch(`${identityUrl}/trpc/organizations.current`);
    assert.equal(none.status, 401);
    const forged = await fetch(`${identityUrl}/trpc/organizations.current`, {
      headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0iLCJvcmciOm51bGx9.c2lnbmF0dXJl' },
    });
    assert.equal(forged.status, 401);
  });
});

describe('service errors through /trpc keep their status', () => {
  it('not_found is 404 and validation_failed 422 on the wire, with appCode and appDetails', async () => {
    const env = testEnv();
    const login = await call('POST', '/auth/login', { body: { email: env.adminEmail, password: env.adminPassword } });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const input = encodeURIComponent(JSON.stringify({ id: 'flow_0000000000000000000000' }));
    const missing = await call('GET', `/trpc/recruiting/flows.get?input=${input}`, { headers: { cookie } });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.body.error.data.appCode, 'not_found');
    const invalid = await call('POST', '/trpc/recruiting/flows.create', { headers: { cookie }, body: { name: 'No position', stages: [{ name: 'AI', kind: 'ai_interview' }] } });
    assert.equal(invalid.status, 422, invalid.text);
    assert.equal(invalid.body.error.data.appDetails[0].path, 'positionId');
  });
});
