import { createTRPCClient, httpLink, TRPCClientError, type HTTPLinkOptions } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { appErrorDataOf } from '@hireloop/contracts';
import { AppError } from './errors.js';
import type { InternalAuth } from './internal-auth.js';
import { IDEMPOTENCY_SCOPE_HEADER } from './service-idempotency.js';
import type { InternalTokenCache } from './internal-auth.js';
import { currentRequestId } from './request-id.js';
import { serviceFetch } from './service-fetch.js';
import { AUDIT_ACTOR_HEADER, CLIENT_IP_PREFIX_HEADER, currentAuditContext } from './audit.js';

/**
 * Per-call identity: the internal caller the target service will see, and the request id to carry
 * (when absent: the running service call's, or the scope's of `withRequestId`, as in an activity).
 */
export interface CallContext {
  auth: InternalAuth;
  requestId?: string;
  /** The client's /24 or /48 (audit.ts), for the audit rows of the call's writes. */
  ipPrefix?: string | null;
  /** With a `system` token: who the platform acts for (an operator CLI: `cli:keys`). */
  actor?: string;
  /** Sent as IDEMPOTENCY_SCOPE_HEADER: the owning service records it with the write it makes. */
  idempotencyScope?: string;
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
          fetch: serviceFetch,
          headers: async () => {
            const headers: Record<string, string> = { authorization: `Bearer ${await tokens.tokenFor(call.auth)}` };
            // Inside a service call, a call onward carries the same request, client and actor, so
            // the writes it causes are audited as the original caller's. An activity runs in the
            // scope of its workflow's request id (workflows' request-id.activity-interceptors.ts).
            const audit = currentAuditContext();
            const requestId = call.requestId ?? audit?.requestId ?? currentRequestId();
            const ipPrefix = call.ipPrefix ?? audit?.ipPrefix;
            const actor = call.actor ?? audit?.actorId;
            if (requestId) headers['x-request-id'] = requestId;
            if (ipPrefix) headers[CLIENT_IP_PREFIX_HEADER] = ipPrefix;
            if (actor) headers[AUDIT_ACTOR_HEADER] = actor;
            if (call.idempotencyScope) headers[IDEMPOTENCY_SCOPE_HEADER] = call.idempotencyScope;
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
  const data = appErrorDataOf(error.data);
  if (data.appCode) return new AppError(data.appCode, error.message, data.appDetails, data.appExtra);
  if (!error.data) return new AppError('service_unavailable', 'A platform service is unavailable; try again shortly.');
  return null;
}
