import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { call, newOrganizationWithKey, testEnv, type ApiResponse } from '@hireloop/devstack/testing';
import { assertError, assertValidation, unique } from './api-assertions.js';

/** A POST with a body of raw bytes, for what `call` cannot send (bad UTF-8, gzip). */
async function postBytes(path: string, key: string, body: Buffer, headers: Record<string, string>): Promise<ApiResponse<any>> {
  const res = await fetch(`${testEnv().gatewayUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body: new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

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

  it('422 validation_failed for a JSON body that is not an object (found by schemathesis: PATCH with `null` was an empty patch)', async () => {
    const position = await call('POST', '/api/v1/positions', { key, body: { title: 'Body shape' } });
    assert.equal(position.status, 201, position.text);
    for (const rawBody of ['null', '5', '"x"', '[]', 'true']) {
      for (const [method, path] of [['PATCH', `/api/v1/positions/${position.body.data.id}`], ['POST', '/api/v1/candidates']] as const) {
        const res = await call(method, path, { key, rawBody, headers: { 'content-type': 'application/json' } });
        assertValidation(res, '(root)');
      }
    }
    assert.equal((await call('PATCH', `/api/v1/positions/${position.body.data.id}`, { key, body: {} })).status, 200);
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

  describe('encodings and numbers (PRODUCT.md §3, CLARIFICATIONS)', () => {
    const candidate = () => JSON.stringify({ email: `enc-${unique()}@example.com`, name: 'Encoded' });

    it('compares the media type case-insensitively', async () => {
      const res = await call('POST', '/api/v1/candidates', { key, rawBody: candidate(), headers: { 'content-type': 'APPLICATION/JSON; Charset=UTF-8' } });
      assert.equal(res.status, 201, res.text);
    });

    it('415 for a charset other than UTF-8', async () => {
      for (const charset of ['latin1', 'utf-16', 'iso-8859-1']) {
        const res = await call('POST', '/api/v1/candidates', { key, rawBody: candidate(), headers: { 'content-type': `application/json; charset=${charset}` } });
        assertError(res, 415, 'unsupported_media_type');
      }
    });

    it('415 for a Content-Encoding other than identity or gzip', async () => {
      for (const encoding of ['br', 'deflate', 'bogus', 'gzip, gzip']) {
        const res = await call('POST', '/api/v1/candidates', { key, rawBody: candidate(), headers: { 'content-type': 'application/json', 'content-encoding': encoding } });
        assertError(res, 415, 'unsupported_media_type');
      }
    });

    it('reads a gzip body; 400 invalid_json for one that does not inflate; 413 past 1 MiB inflated', async () => {
      const ok = await postBytes('/api/v1/candidates', key, gzipSync(candidate()), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      assert.equal(ok.status, 201, ok.text);
      const bad = await postBytes('/api/v1/candidates', key, Buffer.from(candidate()), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      assertError(bad, 400, 'invalid_json');
      const bomb = gzipSync(JSON.stringify({ email: 'bomb@example.com', name: 'x'.repeat(1024 * 1024) }));
      assert.ok(bomb.length < 64 * 1024);
      assertError(await postBytes('/api/v1/candidates', key, bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' }), 413, 'payload_too_large');
    });

    it('400 invalid_json for raw bytes that are not UTF-8', async () => {
      const body = Buffer.concat([Buffer.from('{"email": "raw@example.com", "name": "'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
      assertError(await postBytes('/api/v1/candidates', key, body, { 'content-type': 'application/json' }), 400, 'invalid_json');
    });

    it('400 invalid_json past 64 levels of nesting, 10 000 included; 64 levels parse', async () => {
      for (const depth of [65, 10_000]) {
        assertError(await call('POST', '/api/v1/candidates', { key, rawBody: nested(depth), headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
      }
      // Brackets inside strings do not count.
      const inString = await call('POST', '/api/v1/candidates', { key, body: { email: `deep-${unique()}@example.com`, name: '['.repeat(100) } });
      assert.equal(inString.status, 201, inString.text);
      const res = await call('POST', '/api/v1/candidates', { key, rawBody: `{"metadata": ${nested(63)}}`, headers: { 'content-type': 'application/json' } });
      assertValidation(res, 'metadata');
    });

    it('422 with the field for U+0000 or a lone surrogate in a string', async () => {
      assertValidation(await call('POST', '/api/v1/candidates', { key, body: { email: `nul-${unique()}@example.com`, name: 'a\u0000b' } }), 'name');
      assertValidation(await call('POST', '/api/v1/candidates', { key, rawBody: `{"email": "s-${unique()}@example.com", "name": "a\\ud800b"}`, headers: { 'content-type': 'application/json' } }), 'name');
      assertValidation(await call('POST', '/api/v1/candidates', { key, body: { email: `m-${unique()}@example.com`, name: 'M', metadata: { k: '\udc00' } } }), 'metadata.k');
      // A well-formed pair (an emoji) is fine.
      const ok = await call('POST', '/api/v1/candidates', { key, body: { email: `e-${unique()}@example.com`, name: 'Emoji \u{1F600}' } });
      assert.equal(ok.status, 201, ok.text);
    });

    it('422 for a number sent as a string in a body', async () => {
      const res = await call('POST', '/api/v1/interviews', { key, body: { candidate: { email: 'n@example.com', name: 'N' }, positionId: 'pos_0000000000', duration: '30' } });
      assertValidation(res, 'duration');
    });

    it('integer query parameters take plain decimal digits only', async () => {
      const reader = (await newOrganizationWithKey(['read'])).key;
      for (const limit of ['1e1', '%2B5', '%205', '5%20', '0x10', '10.0']) {
        assertValidation(await call('GET', `/api/v1/candidates?limit=${limit}`, { key: reader }), 'limit');
      }
      const ok = await call('GET', '/api/v1/candidates?limit=10', { key: reader });
      assert.equal(ok.status, 200, ok.text);
    });

    it('422 for U+0000 or bytes that are not UTF-8 in a query or a path', async () => {
      const reader = (await newOrganizationWithKey(['read'])).key;
      assertValidation(await call('GET', '/api/v1/candidates?email=x%00y', { key: reader }), 'email');
      assertValidation(await call('GET', '/api/v1/candidates?email=%ff', { key: reader }), 'email');
      assertValidation(await call('GET', '/api/v1/candidates/%ff', { key: reader }));
      assertValidation(await call('GET', '/api/v1/candidates/cand_%00', { key: reader }));
    });
  });
});
