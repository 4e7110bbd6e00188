import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { ERROR_STATUS, trpcCodeOf, type ErrorCode, type ErrorDetail } from '@hireloop/contracts';

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

/** Wraps an AppError for tRPC, keeping the AppError as the cause so formatters can read it. */
export function toTRPCError(error: AppError): TRPCError {
  const code: TRPC_ERROR_CODE_KEY = trpcCodeOf(error.code);
  return new TRPCError({ code, message: error.message, cause: error });
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
