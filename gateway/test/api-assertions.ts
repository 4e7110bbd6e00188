import assert from 'node:assert/strict';
import type { ApiResponse } from '@hireloop/devstack/testing';

/** PRODUCT.md §3's error envelope, with this status and code, and nothing else at the top level. */
export function assertError(res: ApiResponse<any>, status: number, code: string) {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body), ['error']);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
}

/** 422 validation_failed, with a detail naming `path` when one is given. */
export function assertValidation(res: ApiResponse<any>, path?: string) {
  assertError(res, 422, 'validation_failed');
  const details = res.body.error.details as { path: string; message: string }[];
  assert.ok(Array.isArray(details) && details.length > 0, res.text);
  if (path) assert.ok(details.some((d) => d.path === path), `expected a detail for ${path}: ${res.text}`);
}

/** The path and query of the `Link: <…>; rel="next"` URL, or null when there is none. */
export function nextPath(res: ApiResponse<any>): string | null {
  const link = res.headers.get('link');
  if (!link) return null;
  const match = /<([^>]+)>;\s*rel="next"/.exec(link);
  assert.ok(match, `malformed Link header: ${link}`);
  const url = new URL(match[1]!);
  return `${url.pathname}${url.search}`;
}

/** A short string no other test run will produce. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
