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
