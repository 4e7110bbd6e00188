import { createTRPCClientProxy, TRPCClientError, type TRPCClient, type TRPCRequestOptions, type TRPCUntypedClient } from '@trpc/client';
import type { AnyTRPCRouter } from '@trpc/server';
import { appErrorDataOf } from '@hireloop/contracts';
import { AppError } from './errors.js';
import type { InternalAuth } from './internal-auth.js';
import { IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_SCOPE_HEADER } from './service-idempotency.js';
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
  /** Sent as IDEMPOTENCY_FINGERPRINT_HEADER: the SHA-256 of the request body, recorded with the scope. */
  idempotencyFingerprint?: string;
}


export interface ServiceClientOptions {
  /**
   * A call the service has not answered within this long fails as the service being unavailable
   * (503 `service_unavailable` at the gateway), as a refused connection does: a hung service
   * (stopped, wedged) must not hang its callers. Unset: no deadline (the worker's activities,
   * whose own timeouts and heartbeats bound them, and whose long purges may take minutes).
   */
  timeoutMs?: number;
}

/**
 * A typed client of another service's router: one per service and process (STYLE.md), its base
 * URL read once. `client(call)` is a view of it for one caller, not another client: each call
 * through the view carries that CallContext, which becomes the internal token and the
 * X-Request-Id, audit and idempotency headers of that one call.
 *
 * The calls speak tRPC's HTTP wire format without tRPC's link machinery (an observable chain, two
 * AbortControllers and an abort with its DOMException per call; about a seventh of the gateway's
 * CPU per invite page in the interview bench's profile, docs/benchmarks.md): a query is
 * `GET <url>/<path>?input=<JSON>`, a mutation a POST of the JSON input, as `httpLink` sends them
 * and trpc-call-handler.ts answers them. The typed proxy is still tRPC's, and a failure is the
 * TRPCClientError `httpLink` would give: the service's error shape as `data` (so
 * appErrorFromClientError reads it), or, when the service is down or answers something that is
 * not tRPC, an error without data (service_unavailable).
 */
export function createServiceClient<TRouter extends AnyTRPCRouter>(baseUrl: string, tokens: InternalTokenCache, options: ServiceClientOptions = {}) {
  const url = `${baseUrl.replace(/\/$/, '')}/trpc/`;
  const silenceTimeoutMs = options.timeoutMs;
  const send = async (type: 'query' | 'mutation', path: string, input: unknown, call: CallContext): Promise<unknown> => {
    const headers = await callHeaders(tokens, call);
    let answer: unknown;
    try {
      const response =
        type === 'query'
          ? await serviceFetch(`${url}${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { method: 'GET', headers, silenceTimeoutMs })
          : await serviceFetch(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: input === undefined ? undefined : JSON.stringify(input), silenceTimeoutMs });
      answer = await response.json();
    } catch (cause) {
      throw TRPCClientError.from(cause instanceof Error ? cause : new Error('the service call failed'));
    }
    const result = resultOf(answer);
    if (result.ok) return result.data;
    throw TRPCClientError.from(result.failure);
  };
  return (call: CallContext): TRPCClient<TRouter> => {
    const view = {
      query: (path: string, input?: unknown, _opts?: TRPCRequestOptions) => send('query', path, input, call),
      mutation: (path: string, input?: unknown, _opts?: TRPCRequestOptions) => send('mutation', path, input, call),
      subscription: () => {
        throw new Error('service clients make no subscriptions');
      },
    };
    return createTRPCClientProxy<TRouter>(view as unknown as TRPCUntypedClient<TRouter>);
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** tRPC's answer to one call: its data, or the `{error}` envelope TRPCClientError.from reads; anything else is a badly formatted answer. */
function resultOf(answer: unknown): { ok: true; data: unknown } | { ok: false; failure: object } {
  if (isObject(answer) && 'error' in answer) {
    if (isObject(answer['error']) && typeof answer['error']['code'] === 'number' && typeof answer['error']['message'] === 'string') return { ok: false, failure: answer };
  } else if (isObject(answer) && isObject(answer['result'])) {
    return { ok: true, data: answer['result']['data'] };
  }
  return { ok: false, failure: new Error('Badly formatted response from server') };
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
  if (call.idempotencyScope && call.idempotencyFingerprint) headers[IDEMPOTENCY_FINGERPRINT_HEADER] = call.idempotencyFingerprint;
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
