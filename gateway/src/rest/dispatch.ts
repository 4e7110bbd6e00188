import type { NextFunction, Request, Response } from 'express';
import { TRPCError } from '@trpc/server';
import { AppError, appErrorOf, clientIpPrefix, databaseUnavailable, idempotencyScope, isTransientDatabaseError, type CallContext, type Logger } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals, type ApiCaller } from '../request-context.js';
import { bodyFingerprint } from '../api/body-fingerprint.js';
import { internalError } from '../api/errors.js';
import { restErrorResponse, type RestResponder, type RestResponse } from '../api/rest-response.js';
import type { RestRouter } from './router.js';
import type { ApiRoute, RouteMatch, RouteTable } from './route-table.js';
import { createCallerFactory, type RestContext } from './trpc.js';
import { scopeRefusal } from './scope.js';

/**
 * Routes each /api/v1 request once, right after its key is verified: every later step (the
 * query check, Idempotency-Key, the dispatcher) reads the match from the request's locals.
 */
export function routeApiRequests(routes: RouteTable) {
  return (req: Request, _res: Response, next: NextFunction) => {
    locals(req).route = routes.match(req.method, req.url);
    next();
  };
}

/** The route a request was matched to by routeApiRequests. */
export function routeOf(req: Request): RouteMatch {
  const match = locals(req).route;
  if (!match) throw new Error('routeApiRequests has not run for this request');
  return match;
}

/**
 * Whether anything about the request's input is read: it has a route, and the key has the
 * route's scope. Otherwise its 404, 405 or 403 comes first, whatever its query or body holds.
 */
export function reachesInput(req: Request): boolean {
  const match = routeOf(req);
  return match.kind === 'route' && !scopeRefusal(locals(req).caller!, match.route);
}

export interface DispatcherDeps {
  router: RestRouter;
  services: ServiceClients;
  publicBaseUrl: string;
  logger: Logger;
}

/**
 * The gateway's own dispatch of /api/v1 (PRODUCT.md §3 for every refusal), as a response value:
 * - no route: 404 route_not_found; a path served with other methods only: 405 with `Allow`;
 * - the key's scope (403) before anything about the input;
 * - a path parameter named again in the query or body: 422, as for any unknown field;
 * - one validation, by the procedure's zod input schema: the query (GET, DELETE) or the JSON body,
 *   with the path parameters merged in, exactly as the client sent them (no coercion: a number
 *   sent as a string is refused, CLARIFICATIONS "Encodings"; integer query parameters parse their
 *   own digits, `queryInt`);
 * - one call of the procedure, which calls its service through the caller's typed client;
 * - its result as `{data}` with the route's success status, `Location` and the headers it set;
 *   any error as our envelope, anything not ours a logged 500.
 * HEAD is routed as the GET (route-table.ts); Node sends it without the body.
 */
export function createDispatcher({ router, services, publicBaseUrl, logger }: DispatcherDeps): RestResponder {
  const createCaller = createCallerFactory(router);

  return async (req) => {
    const match = routeOf(req);
    const { requestId } = locals(req);
    // authenticateApiKey ran before routing: every routed request has its caller.
    const caller = locals(req).caller!;
    if (match.kind === 'none') return restErrorResponse(new AppError('route_not_found', `No route ${req.method} ${pathOf(req.originalUrl)}.`), requestId);
    if (match.kind === 'method_not_allowed') {
      const allow = match.allow.join(', ');
      const error = new AppError('route_not_found', `${pathOf(req.originalUrl)} does not answer ${req.method}; it answers ${allow}.`);
      return restErrorResponse(error, requestId, { status: 405, headers: { Allow: allow } });
    }
    const { route, params } = match;
    // Express parses the query again on every read of req.query.
    const query = req.query as Record<string, string | string[]>;
    const refusal = scopeRefusal(caller, route) ?? misplacedPathParams(route, query, req.body);
    if (refusal) return restErrorResponse(refusal, requestId);

    const fromQuery = route.inputFrom === 'query' ? queryRouteInput(route, query, req.body) : null;
    if (fromQuery instanceof AppError) return restErrorResponse(fromQuery, requestId);
    const input = { ...(fromQuery ?? (req.body as object)), ...params };
    const call: CallContext = {
      auth: { sub: caller.key.id, org: caller.organization.id, scopes: caller.scopes, name: caller.key.name },
      requestId,
      // req.ip honours TRUST_PROXY; only its /24 or /48 goes on, for the audit trail.
      ipPrefix: clientIpPrefix(req.ip),
      ...forwardedIdempotency(req, caller, match.path),
    };
    const clients = services.forCaller(call);
    const ctx: RestContext = { caller, requestId, request: { url: req.originalUrl, body: req.body }, publicBaseUrl, response: { headers: {} }, ...clients };
    try {
      const procedure = (createCaller(ctx) as unknown as Record<string, (input: unknown) => Promise<unknown>>)[route.procedure]!;
      return success(route, ctx, await procedure(input));
    } catch (cause) {
      const error = cause instanceof TRPCError ? cause : new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause });
      const app = appErrorOf(error) ?? (isTransientDatabaseError(error.cause) ? databaseUnavailable() : null);
      if (!app) logger.error({ err: error, path: route.procedure, requestId }, 'REST procedure failed');
      return restErrorResponse(app ?? internalError(), requestId);
    }
  };
}

function success(route: ApiRoute, ctx: RestContext, data: unknown): RestResponse {
  // A 204 has no content, so no type for it either.
  const headers: Record<string, string> = { ...(route.meta.successStatus === 204 ? {} : { 'Content-Type': 'application/json' }), ...ctx.response.headers };
  const location = route.meta.location;
  if (location) headers['Location'] = `/api/v1${location.replace('{id}', (data as { data: { id: string } }).data.id)}`;
  return { status: route.meta.successStatus ?? 200, headers, body: data === undefined ? '' : JSON.stringify(data) };
}

const pathOf = (url: string) => url.split('?')[0]!;

/**
 * The input of a route that reads its query (GET, DELETE): each parameter once as its string, a
 * repeated one as the list of its values (which no schema takes: 422), an empty one as absent
 * when the route takes it (an unknown one stays, for the schema to refuse: PRODUCT.md §5). A
 * DELETE's JSON body joins it, so its fields are checked as the query's are (an unknown one is
 * 422, not dropped); a name in both is 422. A GET's body may be `{}`; a field in it is 422. A null-prototype object, so `__proto__` is an
 * unknown parameter like any other.
 */
function queryRouteInput(route: ApiRoute, query: Record<string, string | string[]>, body: unknown): Record<string, unknown> | AppError {
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(query)) {
    if (!value && (!route.inputNames || route.inputNames.has(name))) continue;
    input[name] = Array.isArray(value) && value.length === 1 ? value[0] : value;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return input;
  // A GET's parameters are its URL's: what pages build on (`Link: rel="next"`), caches key on and
  // logs show. A field in its body is refused, not read (or dropped).
  if (route.method === 'GET' && Object.keys(body).length) {
    return new AppError('validation_failed', 'A GET takes its parameters in the query, not in a body.', Object.keys(body).map((name) => ({ path: name, message: 'send it as a query parameter' })));
  }
  const twice = Object.keys(body).filter((name) => Object.hasOwn(input, name));
  if (twice.length) return new AppError('validation_failed', 'The request gives a field both in its query and in its body.', twice.map((name) => ({ path: name, message: 'given in the query and in the body' })));
  for (const [name, value] of Object.entries(body)) input[name] = value;
  return input;
}

/**
 * The path parameters are the route's: `PATCH /webhooks/{id}` with a body `{"id": …}`, or `?id=`
 * on `GET /webhooks/{id}`, would otherwise be silently overruled by the path. The published
 * document lists neither (unknown query parameters and body fields are 422, PRODUCT.md §5,
 * `additionalProperties: false`): they are refused as the schema refuses any unknown field.
 */
function misplacedPathParams(route: ApiRoute, query: object, body: unknown): AppError | null {
  const inBody = (name: string) => typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, name);
  const found = route.params.filter((name) => Object.hasOwn(query, name) || inBody(name));
  if (found.length === 0) return null;
  return new AppError('validation_failed', 'The request names a path parameter in its query or body.', found.map((name) => ({ path: name, message: 'unknown field or parameter' })));
}

/**
 * The Idempotency-Key of a POST, scoped to the caller's API key and the route's one spelling of
 * the path, for the owning service to record with its write (PRODUCT.md §6): the same record key
 * the gateway's own idempotency uses. Each service procedure names it for itself
 * (procedureScope), so two writes of one request never share a record. The body's fingerprint
 * goes with it: a repeat with another body is 422 at the service too, if the gateway's record is
 * gone (a 5xx after the write committed).
 */
function forwardedIdempotency(req: Request, caller: ApiCaller, path: string): Pick<CallContext, 'idempotencyScope' | 'idempotencyFingerprint'> {
  const key = req.headers['idempotency-key'];
  if (req.method !== 'POST' || typeof key !== 'string' || key.length === 0) return {};
  return { idempotencyScope: idempotencyScope(caller.key.id, req.method, `/api/v1${path}`, key), idempotencyFingerprint: bodyFingerprint(req) };
}
