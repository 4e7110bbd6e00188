import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call } from '@hireloop/devstack/testing';

describe('GET /api/v1/openapi.json', () => {
  it('is a valid OpenAPI 3.x document, served without a key', async () => {
    const res = await call('GET', '/api/v1/openapi.json');
    assert.equal(res.status, 200);
    const validator = new Validator();
    const result = await validator.validate(res.body as Parameters<Validator['validate']>[0]);
    assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
    assert.match((res.body as { openapi: string }).openapi, /^3\./);
  });

  it('declares bearer security and, for every route, its scope, schemas and error responses', async () => {
    const doc = (await call('GET', '/api/v1/openapi.json')).body as any;
    assert.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
    assert.ok(doc.components.schemas.Error);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as object).map(([method, op]) => ({ path, method, op: op as any })));
    assert.ok(operations.some((o) => o.path === '/me' && o.method === 'get'));
    for (const { path, method, op } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(['read', 'write', 'admin'].includes(op['x-required-scope']), `${where} scope`);
      assert.deepEqual(op.security, [{ bearer: [] }], `${where} security`);
      assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')), `${where} success response`);
      for (const status of ['401', '403', '422', '429', '500']) {
        assert.equal(op.responses[status]?.content['application/json'].schema.$ref, '#/components/schemas/Error', `${where} ${status}`);
      }
    }
  });
});

describe('GET /developers/reference', () => {
  it('renders the document with assets served locally: no external URL in the page', async () => {
    const res = await call('GET', '/developers/reference');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.text, /\/api\/v1\/openapi\.json/);
    const urls = res.text.match(/(?:src|href|spec-url)="([^"]+)"/g) ?? [];
    for (const u of urls) assert.doesNotMatch(u, /"(https?:)?\/\//, `external asset ${u}`);
    assert.doesNotMatch(res.text, /https?:\/\//);
    const script = res.text.match(/<script src="([^"]+)"/)![1]!;
    const asset = await call('GET', script);
    assert.equal(asset.status, 200);
    assert.ok(asset.text.length > 100_000, 'the Redoc bundle is served');
  });
});
