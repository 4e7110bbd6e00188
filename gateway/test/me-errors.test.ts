import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, newKey, newOrganizationWithKey, startExtraGateway } from '@hireloop/devstack/testing';
import { freePort } from '@hireloop/devstack/ports';
import { generateApiKey } from '@hireloop/platform';
import { assertError } from './api-assertions.js';

describe('GET /api/v1/me', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  before(async () => {
    org = await newOrganizationWithKey(['read']);
  });

  it('returns the organization, the key and its scopes in a data envelope', async () => {
    const res = await call('GET', '/api/v1/me', { key: org.key });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body), ['data']);
    assert.deepEqual(res.body.data.organization, org.organization);
    assert.deepEqual(res.body.data.scopes, ['read']);
    assert.equal(res.body.data.key.prefix, org.key.slice(0, 11));
    assert.ok(!res.text.includes(org.key), 'the key is never echoed');
  });

  it('401 missing_api_key with WWW-Authenticate when there is no Authorization header', async () => {
    const res = await call('GET', '/api/v1/me');
    assertError(res, 401, 'missing_api_key');
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
  });

  it('401 invalid_api_key for a malformed header, a malformed key and an unknown key', async () => {
    for (const authorization of ['Basic abc', 'Bearer', `Bearer ${org.key.replace('hl_', 'xx_')}`, 'Bearer hl_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA000000', `Bearer ${generateApiKey()}`]) {
      const res = await call('GET', '/api/v1/me', { headers: { authorization } });
      assertError(res, 401, 'invalid_api_key');
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="hireloop", error="invalid_token"');
    }
  });

  it('403 insufficient_scope naming the scope when the key lacks read', async () => {
    const { key } = await newKey(org.organization.id, ['write', 'admin']);
    const res = await call('GET', '/api/v1/me', { key });
    assertError(res, 403, 'insufficient_scope');
    assert.match(res.body.error.message, /`read`/);
  });

  it('422 validation_failed for an unknown query parameter', async () => {
    const res = await call('GET', '/api/v1/me?expand=everything', { key: org.key });
    assertError(res, 422, 'validation_failed');
    assert.ok(Array.isArray(res.body.error.details) && res.body.error.details.length > 0);
    assert.match(JSON.stringify(res.body.error.details), /expand/);
  });

  it('404 route_not_found for an unknown route under /api/v1; 405 for a method the path does not serve (CLARIFICATIONS P1)', async () => {
    assertError(await call('GET', '/api/v1/nothing-here', { key: org.key }), 404, 'route_not_found');
    const wrongMethod = await call('DELETE', '/api/v1/me', { key: org.key });
    assertError(wrongMethod, 405, 'route_not_found');
    assert.equal(wrongMethod.headers.get('allow'), 'GET, HEAD');
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const echoed = await call('GET', '/api/v1/me', { key: org.key, headers: { 'x-request-id': 'ats-trace-42' } });
    assert.equal(echoed.headers.get('x-request-id'), 'ats-trace-42');
    const replaced = await call('GET', '/api/v1/me', { key: org.key, headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(replaced.headers.get('x-request-id') ?? '', /^req_[0-9A-Za-z]{20}$/);
  });

  it('503 service_unavailable with Retry-After when the identity service is down', async () => {
    const gateway = await startExtraGateway({ IDENTITY_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const res = await call('GET', '/api/v1/me', { key: org.key, baseUrl: gateway.url });
      assertError(res, 503, 'service_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.ok(!/ECONNREFUSED|fetch failed|at /.test(res.text), 'no internals in the body');
    } finally {
      await gateway.child.stop();
    }
  });

  it('503 service_unavailable with Retry-After on a REST route whose service is down (recruiting)', async () => {
    const gateway = await startExtraGateway({ RECRUITING_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const res = await call('GET', '/api/v1/candidates', { key: org.key, baseUrl: gateway.url });
      assertError(res, 503, 'service_unavailable');
      assert.ok(Number(res.headers.get('retry-after')) > 0);
      assert.equal((await call('GET', '/api/v1/me', { key: org.key, baseUrl: gateway.url })).status, 200, 'identity still answers');
    } finally {
      await gateway.child.stop();
    }
  });
});

describe('rate limit (PRODUCT.md §4)', () => {
  it('every response carries the IETF and X-RateLimit headers', async () => {
    const { key } = await newOrganizationWithKey(['read']);
    const res = await call('GET', '/api/v1/me', { key });
    assert.equal(res.headers.get('ratelimit-policy'), '"default";q=120;w=60');
    assert.match(res.headers.get('ratelimit') ?? '', /^"default";r=119;t=\d+$/);
    assert.equal(res.headers.get('x-ratelimit-limit'), '120');
    assert.equal(res.headers.get('x-ratelimit-remaining'), '119');
    const reset = Number(res.headers.get('x-ratelimit-reset'));
    assert.ok(reset >= Date.now() / 1000 && reset <= Date.now() / 1000 + 61);
  });

  it('is held across two gateway instances: 429 rate_limited with Retry-After once the shared bucket is empty', async () => {
    const { key } = await newOrganizationWithKey(['read'], 4);
    const second = await startExtraGateway();
    try {
      const urls = [undefined, second.url];
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call('GET', '/api/v1/me', { key, baseUrl: urls[i % 2] })).status);
      assert.deepEqual(statuses, [200, 200, 200, 200]);
      for (const baseUrl of urls) {
        const limited = await call('GET', '/api/v1/me', { key, baseUrl });
        assertError(limited, 429, 'rate_limited');
        assert.ok(Number(limited.headers.get('retry-after')) >= 1);
        assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
        assert.equal(limited.headers.get('ratelimit-policy'), '"default";q=4;w=60');
      }
    } finally {
      await second.child.stop();
    }
  });
});
