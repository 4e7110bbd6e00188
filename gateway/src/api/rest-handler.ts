import type { Request, Response } from 'express';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { AppError, appErrorOf, databaseUnavailable, isTransientDatabaseError, type Logger } from '@hireloop/platform';
import { procedureMeta, restRouter } from '../rest/router.js';
import { createRestContext, type RestContext } from '../rest/trpc.js';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { errorBodyJson, internalError, setRetryAfter } from './errors.js';
import { refuseCoercion } from './no-coercion.js';

/**
 * /api/v1 through trpc-to-openapi. The library writes its own error body; this is the one place
 * that replaces it with our envelope (PRODUCT.md §3) and hides anything internal behind 500.
 */
export function restHandler(services: ServiceClients, publicBaseUrl: string, logger: Logger) {
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

  return async (req: Request, res: Response) => {
    const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => Response;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const error = locals(req).procedureError;
      if (!error) return end(chunk, ...rest);
      const routeMissing = error.code === 'NOT_FOUND' && !(error.cause instanceof AppError);
      const app = routeMissing
        ? new AppError('route_not_found', `No route ${req.method} ${req.originalUrl.split('?')[0]}.`)
        : (appErrorOf(error) ?? (isTransientDatabaseError(error.cause) ? databaseUnavailable() : internalError()));
      const body = errorBodyJson(app, locals(req).requestId);
      res.statusCode = app.status;
      setRetryAfter(res, app);
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('Content-Length', Buffer.byteLength(body));
      return end(body);
    }) as typeof res.end;
    await handle(req as never, res as never);
  };
}
