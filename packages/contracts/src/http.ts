import { z } from 'zod';

/**
 * Request headers of the public API whose rules the gateway enforces (PRODUCT.md §3, §6), so the
 * gateway and the OpenAPI document read one definition.
 */

/** A well-formed `X-Request-Id`: echoed when a client sends one, else the gateway makes `req_…`. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
export const RequestId = z.string().max(128).regex(REQUEST_ID_PATTERN).describe('Request id, echoed in `X-Request-Id` and in error bodies');

/** `Idempotency-Key` (PRODUCT.md §6): 1–255 characters. */
export const IDEMPOTENCY_KEY_MAX = 255;
export const IdempotencyKey = z.string().min(1).max(IDEMPOTENCY_KEY_MAX).describe('Makes a retry safe: the first response is replayed for 24 h');
