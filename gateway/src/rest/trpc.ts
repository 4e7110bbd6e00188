import type { Request } from 'express';
import { AppError, clientIpPrefix, createTrpc, idempotencyScope, type CallContext } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals, type ApiCaller } from '../request-context.js';

/** Context of a REST procedure: the authenticated caller and the typed service clients. */
export interface RestContext {
  req: Request;
  requestId: string;
  caller: ApiCaller | undefined;
  services: ServiceClients;
  publicBaseUrl: string;
  /** A procedure sets these for a status other than 200 or extra headers (Location). */
  response: { status?: number; headers: Record<string, string> };
}

export function createRestContext(services: ServiceClients, publicBaseUrl: string) {
  return ({ req }: { req: Request }): RestContext => ({
    req,
    requestId: locals(req).requestId,
    caller: locals(req).caller,
    services,
    publicBaseUrl,
    response: { headers: {} },
  });
}

const t = createTrpc<RestContext>();
export const router = t.router;

/**
 * Every public route: requires the caller to hold exactly the scope in the route's meta
 * (PRODUCT.md §2: scopes are independent). A route without a scope is refused, never open.
 * A route whose meta names a `location` answers with `Location` for the resource it made.
 */
export const apiProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  const caller = ctx.caller;
  if (!caller) throw new AppError('missing_api_key', 'Send your API key as `Authorization: Bearer hl_…`.');
  const scope = meta?.scope;
  if (!scope) throw new AppError('internal_error', 'Route has no scope.');
  if (!caller.scopes.includes(scope)) {
    throw new AppError('insufficient_scope', `This route needs the \`${scope}\` scope; the key has ${caller.scopes.map((s) => `\`${s}\``).join(', ')}.`);
  }
  // req.ip honours TRUST_PROXY; only its /24 or /48 goes on, for the audit trail.
  const call: CallContext = {
    auth: { sub: caller.key.id, org: caller.organization.id, scopes: caller.scopes }, requestId: ctx.requestId, ipPrefix: clientIpPrefix(ctx.req.ip), ...forwardedIdempotency(ctx.req, caller),
  };
  const result = await next({ ctx: { ...ctx, caller, ...ctx.services.forCaller(call) } });
  if (result.ok && meta.location) ctx.response.headers['Location'] = `/api/v1${meta.location.replace('{id}', (result.data as { data: { id: string } }).data.id)}`;
  return result;
});

/**
 * The Idempotency-Key of a POST, scoped to the caller's API key, for the owning service to record
 * with its write (PRODUCT.md §6): the same scope the gateway's own record uses. It goes on every
 * internal call of the request; each service procedure names it for itself (procedureScope), so
 * two writes of one request never share a record.
 */
function forwardedIdempotency(req: Request, caller: ApiCaller): Pick<CallContext, 'idempotencyScope'> {
  const key = req.headers['idempotency-key'];
  if (req.method !== 'POST' || typeof key !== 'string' || key.length === 0) return {};
  const path = locals(req).idempotencyPath;
  return { idempotencyScope: idempotencyScope(caller.key.id, req.method, path === undefined ? req.originalUrl.split('?')[0]! : `/api/v1${path}`, key) };
}
