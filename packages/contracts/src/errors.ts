import { z } from 'zod';
import { ID_PREFIXES, prefixedId } from './common.js';
import { RequestId } from './http.js';

/**
 * Every error code the platform can answer with, and its HTTP status (PRODUCT.md §3).
 * The one table both the gateway's error formatter and the services use.
 */
export const ERROR_STATUS = {
  missing_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  bearer_not_accepted: 401,
  unauthenticated: 401,
  invalid_credentials: 401,
  insufficient_scope: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  validation_failed: 422,
  idempotency_key_reused: 422,
  invalid_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  headers_too_large: 431,
  interview_not_cancellable: 409,
  already_enrolled: 409,
  enrollment_ended: 409,
  candidate_exists: 409,
  external_id_exists: 409,
  position_closed: 409,
  evaluation_unavailable: 409,
  evaluation_not_ready: 409,
  idempotency_key_in_use: 409,
  conflict: 409,
  rate_limited: 429,
  service_unavailable: 503,
  internal_error: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCode = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/**
 * The most an error body carries: the gateway cuts longer messages and lists to these
 * (errorBodyJson), so every error body validates against the published schema.
 */
export const ERROR_LIMITS = { message: 2000, details: 100, path: 500, detailMessage: 1000 } as const;

export const ErrorDetail = z.object({ path: z.string().max(ERROR_LIMITS.path), message: z.string().max(ERROR_LIMITS.detailMessage) });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ErrorBody = z
  .object({
    error: z.object({
      code: ErrorCode,
      message: z.string().max(ERROR_LIMITS.message),
      requestId: RequestId,
      details: z.array(ErrorDetail).max(ERROR_LIMITS.details).optional(),
      candidateId: prefixedId(ID_PREFIXES.candidate).optional().describe('On `candidate_exists`: the id of the existing candidate, to use instead of creating one'),
    }),
  });
export type ErrorBody = z.infer<typeof ErrorBody>;

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
