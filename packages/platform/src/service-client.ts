import { createTRPCClient, httpLink, TRPCClientError, type HTTPLinkOptions } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import type { ErrorCode, ErrorDetail } from '@hireloop/contracts';
import { AppError, type AppErrorData } from './errors.js';
import type { InternalAuth } from './internal-auth.js';
import type { InternalTokenCache } from './internal-auth.js';

/** Per-call identity: the internal caller the target service will see, and the request id to carry. */
export interface CallContext {
  auth: InternalAuth;
  requestId?: string;
}


/**
 * A typed client of another service's router (STYLE.md: one long-lived client per process).
 * Each call passes its CallContext, which becomes the internal token and X-Request-Id headers.
 */
export function createServiceClient<TRouter extends AnyTRPCRouter>(baseUrl: string, tokens: InternalTokenCache) {
  return (call: CallContext) =>
    createTRPCClient<TRouter>({
      links: [
        httpLink<TRouter>({
          url: `${baseUrl.replace(/\/$/, '')}/trpc`,
          headers: async () => {
            const headers: Record<string, string> = { authorization: `Bearer ${await tokens.tokenFor(call.auth)}` };
            if (call.requestId) headers['x-request-id'] = call.requestId;
            return headers;
          },
          // Our routers use no transformer; the generic cannot see that through AnyTRPCRouter.
        } as unknown as HTTPLinkOptions<TRouter['_def']['_config']['$types']>),
      ],
    });
}

/**
 * Turns a failed service call back into the AppError the service threw; a transport failure
 * (service down, connection refused) becomes 503 service_unavailable.
 */
export function rethrowServiceError(error: unknown): never {
  throw appErrorFromClientError(error) ?? error;
}

/** The AppError behind a failed service call, or null when `error` is not a service-call failure. */
export function appErrorFromClientError(error: unknown): AppError | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = (error.data ?? {}) as AppErrorData & { httpStatus?: number };
  if (data.appCode) return new AppError(data.appCode as ErrorCode, error.message, data.appDetails as ErrorDetail[] | undefined, data.appExtra);
  if (!error.data) return new AppError('service_unavailable', 'A platform service is unavailable; try again shortly.');
  return null;
}
