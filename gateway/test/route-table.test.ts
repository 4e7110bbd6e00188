import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, newKey, newOrganizationWithKey } from '@hireloop/devstack/testing';
import type { Scope } from '@hireloop/contracts';

/**
 * Checks every public route from the OpenAPI document, so a new route is covered the moment it
 * exists: no key → 401 missing_api_key; a key with every scope but the route's → 403.
 */
interface Route {
  method: string;
  path: string;
  scope: Scope;
}

const SCOPES: Scope[] = ['read', 'write', 'admin'];

async function routes(): Promise<Route[]> {
  const doc = (await call('GET', '/api/v1/openapi.json')).body as { paths: Record<string, Record<string, { 'x-required-scope': Scope }>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace(/\{id\}/g, 'x_0000000000000000000000'), scope: op['x-required-scope'] })),
  );
}

describe('every route of the OpenAPI document', () => {
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let all: Route[];
  before(async () => {
    org = await newOrganizationWithKey(['read']);
    all = await routes();
    assert.ok(all.length >= 7);
  });

  it('refuses a request without a key: 401 missing_api_key', async () => {
    for (const r of all) {
      const res = await call(r.method, `/api/v1${r.path}`, { body: r.method === 'POST' ? {} : undefined });
      assert.equal(res.status, 401, `${r.method} ${r.path}`);
      assert.equal(res.body.error.code, 'missing_api_key');
    }
  });

  it('refuses a key that lacks exactly the route\'s scope: 403 insufficient_scope', async () => {
    for (const r of all) {
      const others = SCOPES.filter((s) => s !== r.scope);
      const { key } = await newKey(org.organization.id, others);
      const res = await call(r.method, `/api/v1${r.path}`, { key, body: r.method === 'POST' ? {} : undefined });
      assert.equal(res.status, 403, `${r.method} ${r.path} with ${others.join(',')}: ${res.text}`);
      assert.equal(res.body.error.code, 'insufficient_scope');
      assert.match(res.body.error.message, new RegExp(`\`${r.scope}\``));
    }
  });
});
