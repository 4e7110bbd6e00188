import {
  createTRPCClientProxy, createTRPCUntypedClient, httpLink, TRPCClientError, type HTTPLinkOptions, type Operation, type TRPCClient, type TRPCRequestOptions, type TRPCUntypedClient,
} from '@trpc/client';
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


/** Where an operation's CallContext rides in tRPC's per-operation context. */
const CALL = 'hireloopCall';

/**
 * A typed client of another service's router: one tRPC client per service and process (STYLE.md),
 * its link built once. `client(call)` is a view of it for one caller, not another client: each
 * call through the view passes the CallContext in the operation's context, and the link turns it
 * into the internal token and the X-Request-Id, audit and idempotency headers of that one call.
 */
export function createServiceClient<TRouter extends AnyTRPCRouter>(baseUrl: string, tokens: InternalTokenCache) {
  const client = createTRPCUntypedClient<TRouter>({
    links: [
      httpLink<TRouter>({
        url: `${baseUrl.replace(/\/$/, '')}/trpc`,
        fetch: serviceFetch,
        headers: ({ op }: { op: Operation }) => callHeaders(tokens, op.context[CALL] as CallContext),
        // Our routers use no transformer; the generic cannot see that through AnyTRPCRouter.
      } as unknown as HTTPLinkOptions<TRouter['_def']['_config']['$types']>),
    ],
  });
  return (call: CallContext): TRPCClient<TRouter> => {
    const withCall = (opts?: TRPCRequestOptions): TRPCRequestOptions => ({ ...opts, context: { ...opts?.context, [CALL]: call } });
    const view = {
      query: (path: string, input?: unknown, opts?: TRPCRequestOptions) => client.query(path, input, withCall(opts)),
      mutation: (path: string, input?: unknown, opts?: TRPCRequestOptions) => client.mutation(path, input, withCall(opts)),
      subscription: () => {
        throw new Error('service clients make no subscriptions');
      },
    };
    return createTRPCClientProxy<TRouter>(view as unknown as TRPCUntypedClient<TRouter>);
  };
}

async function callHeaders(tokens: InternalTokenCache, call: CallContext): Promise<Record<string, string>> {
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
