import { AsyncLocalStorage } from 'node:async_hooks';
import { REQUEST_ID_PATTERN } from '@hireloop/contracts';
import { randomBase62 } from './base62.js';

/** A new request id, `req_` + 20 base62 characters. */
export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

/** An incoming X-Request-Id is echoed only if it is short and harmless to log and reflect. */
export function isWellFormedRequestId(value: string): boolean {
  return REQUEST_ID_PATTERN.test(value);
}

/**
 * The request id of the request a service is handling, for code far from the tRPC context (the
 * workflow outbox records it, so the workflow that request starts carries it into its logs).
 */
const current = new AsyncLocalStorage<string>();

export function withRequestId<T>(requestId: string, run: () => T): T {
  return current.run(requestId, run);
}

export function currentRequestId(): string | undefined {
  return current.getStore();
}
