import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey, startExtraGateway, startTestServer, testEnv, testIdentity } from '@hireloop/devstack/testing';
import { generateApiKey } from '@hireloop/platform';

describe('API key lifecycle', () => {
  it('create → use → revoke → 401 revoked_api_key on the very next call', async () => {
    const { organization, key, keyId } = await newOrganizationWithKey(['read']);
    const ok = await call('GET', '/api/v1/me', { key });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.organization.id, organization.id);
    assert.equal(ok.body.data.key.id, keyId);

    await testIdentity().forOrganization(organization.id).apiKeys.revoke.mutate({ id: keyId });
    const after = await call('GET', '/api/v1/me', { key });
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'revoked_api_key');
    assert.equal(after.headers.get('www-authenticate'), 'Bearer realm="hireloop", error="invalid_token"', 'every 401 carries the challenge (RFC 7235 §3.1)');
  });

  it('is listed with its prefix and last-used time, never its value or hash', async () => {
    const { organization, key, keyId } = await newOrganizationWithKey(['read']);
    await call('GET', '/api/v1/me', { key });
    const page = await testIdentity().forOrganization(organization.id).apiKeys.list.query({ limit: 25 });
    const listed = page.items.find((k) => k.id === keyId)!;
    assert.equal(listed.prefix, key.slice(0, 11));
    assert.ok(listed.lastUsedAt, 'lastUsedAt is set after use');
    assert.ok(!JSON.stringify(page).includes(key.slice(11)), 'the key value never appears in a listing');
  });

  it('lists only active keys when asked (the console hides revoked ones), page by page', async () => {
    const { organization, keyId } = await newOrganizationWithKey(['read']);
    const identity = testIdentity().forOrganization(organization.id);
    const kept = await identity.apiKeys.create.mutate({ name: 'kept', scopes: ['read'] });
    const revoked = await identity.apiKeys.create.mutate({ name: 'revoked', scopes: ['read'] });
    await identity.apiKeys.revoke.mutate({ id: revoked.id });
    const all = await identity.apiKeys.list.query({ limit: 25 });
    assert.deepEqual(all.items.map((k) => k.id), [revoked.id, kept.id, keyId]);
    const first = await identity.apiKeys.list.query({ limit: 1, activeOnly: true });
    assert.deepEqual(first.items.map((k) => k.id), [kept.id]);
    const second = await identity.apiKeys.list.query({ limit: 1, activeOnly: true, cursor: first.nextCursor! });
    assert.deepEqual(second.items.map((k) => k.id), [keyId]);
    assert.equal(second.nextCursor, null);
    // A cursor is bound to its filter.
    await assert.rejects(identity.apiKeys.list.query({ limit: 1, cursor: first.nextCursor! }));
  });

  it('cannot be revoked from another organization', async () => {
    const a = await newOrganizationWithKey(['read']);
    const b = await newOrganizationWithKey(['read']);
    await assert.rejects(testIdentity().forOrganization(b.organization.id).apiKeys.revoke.mutate({ id: a.keyId }), /No API key/);
    assert.equal((await call('GET', '/api/v1/me', { key: a.key })).status, 200);
  });

  it('validates name and scopes at creation', async () => {
    const identity = testIdentity().forOrganization(testEnv().demoOrgId);
    await assert.rejects(identity.apiKeys.create.mutate({ name: '', scopes: ['read'] }));
    await assert.rejects(identity.apiKeys.create.mutate({ name: 'x', scopes: [] }));
    await assert.rejects(identity.apiKeys.create.mutate({ name: 'x'.repeat(101), scopes: ['read'] }));
    await assert.rejects(identity.apiKeys.create.mutate({ name: 'x', scopes: ['read', 'read'] }));
  });
});

describe('malformed keys are refused without a look-up', () => {
  it('a bad checksum or shape never reaches the identity service', async () => {
    // A second gateway whose identity calls pass through a counting proxy on loopback.
    let lookups = 0;
    const identityUrl = testEnv().identityUrl;
    const proxy = await startTestServer(async (req, body) => {
      lookups++;
      const res = await fetch(`${identityUrl}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === 'GET' ? undefined : body });
      return { status: res.status, body: await res.text() };
    });
    const gateway = await startExtraGateway({ IDENTITY_URL: proxy.url });
    try {
      const valid = generateApiKey();
      const badChecksum = valid.slice(0, -1) + (valid.endsWith('a') ? 'b' : 'a');
      for (const key of [badChecksum, 'hl_short', 'sk_live_123', `${valid}x`]) {
        const res = await call('GET', '/api/v1/me', { key, baseUrl: gateway.url });
        assert.equal(res.status, 401);
        assert.equal(res.body.error.code, 'invalid_api_key');
      }
      assert.equal(lookups, 0, 'no identity call for malformed keys');
      const unknown = await call('GET', '/api/v1/me', { key: valid, baseUrl: gateway.url });
      assert.equal(unknown.body.error.code, 'invalid_api_key');
      assert.equal(lookups, 1, 'a well-formed unknown key is looked up once');
    } finally {
      await gateway.child.stop();
      await proxy.close();
    }
  });
});
