import type { NextFunction, Request, Response } from 'express';
import { AppError, type Logger } from '@hireloop/platform';
import { internalError, sendError } from './api/errors.js';
import { sendTrpcError } from './session/trpc-proxy.js';

/**
 * The AppError for something a library threw at a request: Express's URIError for a path that
 * does not percent-decode, a body parser's http-errors (4xx with `status`). Anything else is ours.
 */
export function appErrorOfThrown(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof URIError) return new AppError('validation_failed', 'The URL holds bytes that are not UTF-8.', [{ path: 'path', message: 'is not valid percent-encoded UTF-8' }]);
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (status === 413) return new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
  if (status === 415) return new AppError('unsupported_media_type', 'Send the body as application/json in UTF-8.');
  if (status === 404) return new AppError('route_not_found', 'No such route.');
  return new AppError('invalid_json', 'The request could not be read.');
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain HTML error page for the browser surfaces (/console, /i), with no detail of ours. */
export function htmlErrorPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error ${status}</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto"><h1>${status >= 500 ? 'Something went wrong' : 'This page cannot be shown'}</h1><p>${escape(message)}</p></body></html>`;
}

/**
 * The last error handler: each surface answers in its own shape (CLARIFICATIONS "Errors by
 * surface"): tRPC's on /trpc, an HTML page on /console, our envelope elsewhere. Bad input is a 4xx.
 */
export function surfaceErrors(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let app = appErrorOfThrown(err);
    if (!app) {
      logger.error({ err, requestId: res.getHeader('X-Request-Id') }, 'unhandled error');
      app = internalError();
    }
    if (req.path.startsWith('/trpc/')) return sendTrpcError(req, res, app);
    if (app.code === 'service_unavailable') res.setHeader('Retry-After', '5');
    if (req.path === '/console' || req.path.startsWith('/console/')) return void res.status(app.status).type('html').send(htmlErrorPage(app.status, app.message));
    sendError(req, res, app);
  };
}
