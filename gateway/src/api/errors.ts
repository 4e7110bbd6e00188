import type { Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import type { ErrorBody } from '@hireloop/contracts';
import { locals } from '../request-context.js';

/** Writes PRODUCT.md §3's error envelope: `{"error": {code, message, requestId, details?}}`. */
export function sendError(req: Request, res: Response, error: AppError): void {
  res.status(error.status).type('application/json').send(errorBodyJson(error, locals(req).requestId));
}

export function errorBodyJson(error: AppError, requestId: string): string {
  const body: ErrorBody = { error: { code: error.code, message: error.message, requestId } };
  if (error.details?.length) body.error.details = error.details;
  if (error.extra) Object.assign(body.error, error.extra);
  return JSON.stringify(body);
}

export const internalError = () => new AppError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs.');
