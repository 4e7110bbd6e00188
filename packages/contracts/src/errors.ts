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
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

/**
 * tRPC's error code for each status above: how an error of ours travels on a tRPC hop (between
 * services, and to the console on /trpc). With ERROR_STATUS, the one path code → HTTP status →
 * tRPC code; keyed by exactly the statuses used there, so a new status cannot miss its tRPC code.
 * 431 has no tRPC code of its own: it is a request the client must shrink, so BAD_REQUEST.
 */
export const TRPC_CODE_BY_STATUS = {
  400: 'PARSE_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  431: 'BAD_REQUEST',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<ErrorStatus, string>;
export type TrpcCodeOfError = (typeof TRPC_CODE_BY_STATUS)[ErrorStatus];

export function trpcCodeOf(code: ErrorCode): TrpcCodeOfError {
  return TRPC_CODE_BY_STATUS[ERROR_STATUS[code]];
}

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

/**
 * What an error of ours carries in tRPC's `error.data` on the wire (the services' error
 * formatter and the gateway's /trpc answers write it): the HTTP status, our code, the field
 * details and the recovery hints (`candidateId` on candidate_exists).
 */
export interface AppErrorData {
  httpStatus?: number;
  appCode?: ErrorCode;
  appDetails?: ErrorDetail[];
  appExtra?: Record<string, unknown>;
}

const isDetail = (d: unknown): d is ErrorDetail =>
  typeof (d as ErrorDetail | null)?.path === 'string' && typeof (d as ErrorDetail).message === 'string';

/**
 * Reads AppErrorData out of a tRPC error's `data`, whoever sent it: the one decoder of the wire
 * shape, for the services' clients (platform) and the console alike. A field that is missing or
 * not of its type is left out, never guessed.
 */
export function appErrorDataOf(data: unknown): AppErrorData {
  if (!data || typeof data !== 'object') return {};
  const d = data as Record<string, unknown>;
  const out: AppErrorData = {};
  if (typeof d['httpStatus'] === 'number') out.httpStatus = d['httpStatus'];
  const code = ErrorCode.safeParse(d['appCode']);
  if (code.success) out.appCode = code.data;
  if (Array.isArray(d['appDetails'])) out.appDetails = d['appDetails'].filter(isDetail);
  const extra = d['appExtra'];
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) out.appExtra = extra as Record<string, unknown>;
  return out;
}
