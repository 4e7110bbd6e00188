import { createHash } from 'node:crypto';
import type { Request } from 'express';

/**
 * SHA-256 of a request's body as parsed and written again: whitespace is not part of it, member
 * order is (docs/api.md). The gateway's Idempotency-Key record keeps it, and so does the owning
 * service's, beside the forwarded scope (rest/dispatch.ts).
 */
export function bodyFingerprint(req: Request): string {
  return createHash('sha256').update(JSON.stringify(req.body ?? null)).digest('hex');
}
