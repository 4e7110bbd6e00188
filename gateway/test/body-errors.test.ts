import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, newOrganizationWithKey } from '@hireloop/devstack/testing';

describe('request bodies (PRODUCT.md §3, §4)', () => {
  let key: string;
  before(async () => {
    key = (await newOrganizationWithKey(['write'])).key;
  });

  it('400 invalid_json for a body that is not JSON', async () => {
    const res = await call('POST', '/api/v1/candidates', { key, rawBody: '{"email": ', headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_json');
  });

  it('415 unsupported_media_type for another content type', async () => {
    const res = await call('POST', '/api/v1/candidates', { key, rawBody: 'email=a@b.c', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(res.status, 415);
    assert.equal(res.body.error.code, 'unsupported_media_type');
  });

  it('accepts application/json with a charset', async () => {
    const res = await call('POST', '/api/v1/candidates', { key, rawBody: JSON.stringify({ email: `cs-${Date.now()}@example.com`, name: 'Charset' }), headers: { 'content-type': 'application/json; charset=utf-8' } });
    assert.equal(res.status, 201, res.text);
  });

  it('413 payload_too_large for a body over 1 MiB', async () => {
    const res = await call('POST', '/api/v1/candidates', { key, body: { email: 'big@example.com', name: 'Big', metadata: { blob: 'x'.repeat(1024 * 1024) } } });
    assert.equal(res.status, 413);
    assert.equal(res.body.error.code, 'payload_too_large');
  });

  it('422 validation_failed lists every problem with its path', async () => {
    const res = await call('POST', '/api/v1/candidates', { key, body: { email: 'not-an-email', name: '', extra: 1 } });
    assert.equal(res.status, 422);
    assert.equal(res.body.error.code, 'validation_failed');
    const paths = (res.body.error.details as { path: string }[]).map((d) => d.path);
    assert.ok(paths.includes('email'), JSON.stringify(paths));
    assert.ok(paths.includes('name'), JSON.stringify(paths));
    assert.ok(paths.some((p) => p.includes('extra')), JSON.stringify(res.body.error.details));
  });
});
