import type { Request, Response } from 'express';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { AppError, appErrorOf, databaseUnavailable, isTransientDatabaseError, type Logger } from '@hireloop/platform';
import type { TRPCError } from '@trpc/server';
import { procedureMeta, restRouter } from '../rest/router.js';
import { createRestContext, type RestContext } from '../rest/trpc.js';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { errorBodyJson, internalError, retryAfter } from './errors.js';
import { refuseCoercion } from './no-coercion.js';
import { misplacedPathParams } from './path-params.js';

/** An /api/v1 response as a value: what a route produced, what idempotency stores and replays. */
export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Produces the response to an /api/v1 request without sending it. */
export type RestResponder = (req: Request, res: Response) => Promise<RestResponse>;

/** Sends a response value as it is: the one writer of /api/v1 route responses. */
export function sendRestResponse(res: Response, response: RestResponse): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}

/**
 * /api/v1 through trpc-to-openapi, as a value. The library writes to a Node response; it gets a
 * recorder (as its own fetch adapter does), so the status, headers and body it produces come back
 * here instead of going to the socket. This is the one place that replaces the library's error
 * body with our envelope (PRODUCT.md §3) and hides anything internal behind 500.
 */
export function restResponder(services: ServiceClients, publicBaseUrl: string, logger: Logger): RestResponder {
  refuseCoercion(restRouter);
  const handle = createOpenApiNodeHttpHandler({
    router: restRouter,
    createContext: createRestContext(services, publicBaseUrl) as never,
    responseMeta: ({ ctx, errors, paths }) => {
      const context = ctx as RestContext | undefined;
      if (errors.length) return {};
      const meta = paths?.[0] ? procedureMeta(paths[0]) : undefined;
      return { status: context?.response.status ?? meta?.successStatus ?? 200, headers: context?.response.headers ?? {} };
    },
    onError: ({ error, req, path }) => {
      const hl = locals(req as Request);
      hl.procedureError = error;
      if (!path && error.code === 'NOT_FOUND') return;
      if (!appErrorOf(error) && !isTransientDatabaseError(error.cause)) logger.error({ err: error, path, requestId: hl.requestId }, 'REST procedure failed');
    },
  });

  return async (req, res) => {
    const misplaced = misplacedPathParams(req);
    if (misplaced) return appErrorResponse(req, misplaced);
    const recorder = new ResponseRecorder(res);
    // HEAD is GET without the body (RFC 9110 §9.3.2): the library would answer every HEAD, even of
    // a route that does not exist, 204 ("warm-up"). It runs as the GET; Node drops the body.
    const method = req.method;
    if (method === 'HEAD') req.method = 'GET';
    try {
      await handle(req as never, recorder as never);
    } finally {
      req.method = method;
    }
    const error = locals(req).procedureError;
    if (error) return errorResponse(req, error);
    if (!recorder.result) {
      logger.error({ requestId: locals(req).requestId }, 'REST handler ended without a response');
      return errorResponse(req);
    }
    return recorder.result;
  };
}

/** Our envelope for a procedure's error (or, with none, a plain 500). */
function errorResponse(req: Request, error?: TRPCError): RestResponse {
  const routeMissing = error?.code === 'NOT_FOUND' && !(error.cause instanceof AppError);
  const app = !error
    ? internalError()
    : routeMissing
      ? new AppError('route_not_found', `No route ${req.method} ${req.originalUrl.split('?')[0]}.`)
      : (appErrorOf(error) ?? (isTransientDatabaseError(error.cause) ? databaseUnavailable() : internalError()));
  return appErrorResponse(req, app);
}

function appErrorResponse(req: Request, app: AppError): RestResponse {
  return { status: app.status, headers: { 'Content-Type': 'application/json', ...retryAfter(app) }, body: errorBodyJson(app, locals(req).requestId) };
}

/**
 * What trpc-to-openapi's handler uses of a Node response: `statusCode`, `setHeader` and `end` are
 * recorded; `close` and `writableEnded` are the real response's, so the request's abort signal
 * still fires when the client goes away.
 */
class ResponseRecorder {
  statusCode = 200;
  result: RestResponse | undefined;
  private readonly headers: Record<string, string> = {};

  constructor(private readonly real: Response) {}

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }

  end(body?: unknown): this {
    this.result = { status: this.statusCode, headers: this.headers, body: typeof body === 'string' ? body : '' };
    return this;
  }

  get writableEnded(): boolean {
    return this.real.writableEnded;
  }

  once(event: string, listener: () => void): this {
    this.real.once(event, listener);
    return this;
  }

  off(event: string, listener: () => void): this {
    this.real.off(event, listener);
    return this;
  }
}
