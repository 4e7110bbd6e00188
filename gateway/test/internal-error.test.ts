import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, startExtraGateway, startTestServer, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { assertError, unique } from './api-assertions.js';

/** What a service answers when it fails unexpectedly: a tRPC error with internals in it. */
const LEAKY = JSON.stringify({
  error: {
    message: 'boom: select password_hash from identity.users where id = $1',
    code: -32603,
    data: { code: 'INTERNAL_SERVER_ERROR', httpStatus: 500, stack: 'Error: boom\n    at query (/srv/db.ts:1:1)', path: 'x' },
  },
});

describe('500 internal_error', () => {
  it('hides what a failing service said: no message, SQL or stack reaches the client', async () => {
    const { key } = await newOrganizationWithKey(['read']);
    const broken = await startTestServer(() => ({ status: 500, body: LEAKY }));
    // One gateway whose recruiting service fails (the key still authenticates), one whose identity does.
    const recruitingDown = await startExtraGateway({ RECRUITING_URL: broken.url });
    const identityDown = await startExtraGateway({ IDENTITY_URL: broken.url });
    try {
      for (const [baseUrl, path] of [[recruitingDown.url, '/api/v1/candidates'], [identityDown.url, '/api/v1/me']] as const) {
        const res = await call('GET', path, { key, baseUrl });
        assertError(res, 500, 'internal_error');
        assert.doesNotMatch(res.text, /boom|select|password|stack|\/srv\//i, res.text);
      }
    } finally {
      await recruitingDown.child.stop();
      await identityDown.child.stop();
      await broken.close();
    }
  });

  it('on /trpc keeps tRPC\'s shape but replaces a message that is not ours and drops the stack', async () => {
    const { organization } = await newOrganizationWithKey(['read']);
    const email = `leak-${unique()}@example.com`;
    const password = `pw-${unique()}-${unique()}`;
    await testIdentity().system.users.create.mutate({ organizationId: organization.id, email, name: 'Leak', password });
    const login = await fetch(`${testEnv().gatewayUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    assert.equal(login.status, 200, await login.text());
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const broken = await startTestServer(() => ({ status: 500, body: LEAKY }));
    const recruitingDown = await startExtraGateway({ RECRUITING_URL: broken.url });
    try {
      const res = await call('GET', '/trpc/recruiting/candidates.list?input=%7B%7D', { baseUrl: recruitingDown.url, headers: { cookie } });
      assert.equal(res.status, 500, res.text);
      assert.equal(typeof res.body.error.message, 'string');
      assert.equal(res.body.error.data.code, 'INTERNAL_SERVER_ERROR');
      assert.doesNotMatch(res.text, /boom|select|password|stack|\/srv\//i, res.text);
    } finally {
      await recruitingDown.child.stop();
      await broken.close();
    }
  });
});
