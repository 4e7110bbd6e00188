import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '@hireloop/contracts';

/** The one error type of the platform: a code from the contracts' table, a safe message, details. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields a client needs to recover, e.g. the id of the existing candidate. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

const TRPC_CODE_BY_STATUS: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'PARSE_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
  503: 'SERVICE_UNAVAILABLE',
  500: 'INTERNAL_SERVER_ERROR',
};

/** Wraps an AppError for tRPC, keeping the AppError as the cause so formatters can read it. */
export function toTRPCError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_BY_STATUS[error.status] ?? 'INTERNAL_SERVER_ERROR', message: error.message, cause: error });
}

/** The app-level code carried across a tRPC hop (see trpc.ts errorFormatter). */
export interface AppErrorData {
  appCode?: ErrorCode;
  appDetails?: ErrorDetail[];
  appExtra?: Record<string, unknown>;
}

/**
 * A network call of ours that passed its deadline (a relay's call to another service). Its message
 * is ours — what was called and the deadline, never a URL or a payload — so logs keep it.
 */
export class CallTimeoutError extends Error {
  readonly code = 'call_timeout';
  constructor(what: string, timeoutMs: number) {
    super(`${what} timed out after ${timeoutMs} ms`);
    this.name = 'CallTimeoutError';
  }
}
