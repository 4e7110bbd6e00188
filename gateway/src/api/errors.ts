import type { Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ERROR_LIMITS, trpcCodeOf, type AppErrorData, type ErrorBody } from '@hireloop/contracts';
import { locals } from '../request-context.js';

/**
 * Writes an error in the shape of the request's surface (CLARIFICATIONS "Errors by surface"):
 * tRPC's on /trpc, an HTML page on /console and /i, PRODUCT.md §3's envelope
 * (`{"error": {code, message, requestId, details?}}`) everywhere else. The one writer every
 * middleware uses, so a check shared by several surfaces (bearer, session, origin) answers right.
 */
export function sendError(req: Request, res: Response, error: AppError): void {
  res.set(retryAfter(error));
  const { contentType, body } = errorResponse(req.originalUrl.split('?')[0]!, error, locals(req).requestId);
  res.status(error.status).type(contentType).send(body);
}

/** PRODUCT.md §3: a 503 says when to retry, whichever writer sends it (sendError, the REST handler). */
export function retryAfter(error: AppError): Record<string, string> {
  return error.code === 'service_unavailable' ? { 'Retry-After': '5' } : {};
}

/** The error body for a request to `path`, in its surface's shape (also for requests Express never sees). */
export function errorResponse(path: string, error: AppError, requestId: string): { contentType: string; body: string } {
  if (path.startsWith('/trpc/')) return { contentType: 'application/json', body: JSON.stringify(trpcErrorBody(error, requestId)) };
  if (path === '/console' || path.startsWith('/console/') || path === '/i' || path.startsWith('/i/')) return { contentType: 'text/html; charset=utf-8', body: htmlErrorPage(error.status, error.message) };
  return { contentType: 'application/json', body: errorBodyJson(error, requestId) };
}

/**
 * An error in tRPC's shape, as the services' own errors reach the console: tRPC's code for the
 * status (the contracts' table) with its JSON-RPC number (tRPC's own), our code in `data.appCode`.
 */
export function trpcErrorBody(error: AppError, requestId?: string) {
  const name = trpcCodeOf(error.code);
  const data: AppErrorData & { code: string; requestId?: string } = { code: name, httpStatus: error.status, appCode: error.code, appDetails: error.details, requestId };
  return { error: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[name], data } };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain HTML error page for the browser surfaces (/console, /i), with no detail of ours. */
export function htmlErrorPage(status: number, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error ${status}</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto"><h1>${status >= 500 ? 'Something went wrong' : 'This page cannot be shown'}</h1><p>${escapeHtml(message)}</p></body></html>`;
}

/** Cuts a string to `max` characters without splitting a surrogate pair. */
function cut(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max).replace(/[\uD800-\uDBFF]$/, '');
}

/** The error envelope, cut to the published limits (ERROR_LIMITS), so it always validates. */
export function errorBodyJson(error: AppError, requestId: string): string {
  const body: ErrorBody = { error: { code: error.code, message: cut(error.message, ERROR_LIMITS.message), requestId } };
  if (error.details?.length) {
    body.error.details = error.details.slice(0, ERROR_LIMITS.details).map((d) => ({ path: cut(d.path, ERROR_LIMITS.path), message: cut(d.message, ERROR_LIMITS.detailMessage) }));
  }
  if (error.extra) Object.assign(body.error, error.extra);
  return JSON.stringify(body);
}

export const internalError = () => new AppError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs.');
