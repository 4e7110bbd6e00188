import type { Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import { ERROR_LIMITS, type ErrorBody } from '@hireloop/contracts';
import { locals } from '../request-context.js';

/** Writes PRODUCT.md §3's error envelope: `{"error": {code, message, requestId, details?}}`. */
export function sendError(req: Request, res: Response, error: AppError): void {
  res.status(error.status).type('application/json').send(errorBodyJson(error, locals(req).requestId));
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
