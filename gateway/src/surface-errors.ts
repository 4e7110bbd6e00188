import type { NextFunction, Request, Response } from 'express';
import { AppError, databaseUnavailable, isTransientDatabaseError, type Logger } from '@hireloop/platform';
import { internalError, sendError } from './api/errors.js';

/**
 * The AppError for something a library threw at a request: a transient database failure, Express's URIError for a path that
 * does not percent-decode, a body parser's http-errors (4xx with `status`). Anything else is ours.
 */
export function appErrorOfThrown(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  // The gateway's own database (rate limits, idempotency records, sessions) busy or paused: retry.
  if (isTransientDatabaseError(err)) return databaseUnavailable();
  if (err instanceof URIError) return new AppError('validation_failed', 'The URL holds bytes that are not UTF-8.', [{ path: 'path', message: 'is not valid percent-encoded UTF-8' }]);
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 413) return new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
  if (status === 415) return new AppError('unsupported_media_type', 'Send the body as application/json in UTF-8.');
  if (status === 404) return new AppError('route_not_found', 'No such route.');
  return new AppError('invalid_json', 'The request could not be read.');
}

/**
 * The last error handler: bad input a library refused is a 4xx, anything else a logged 500, each
 * in its surface's shape (sendError).
 */
export function surfaceErrors(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let app = appErrorOfThrown(err);
    if (!app) {
      logger.error({ err, requestId: res.getHeader('X-Request-Id') }, 'unhandled error');
      app = internalError();
    }
    sendError(req, res, app);
  };
}
