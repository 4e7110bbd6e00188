import type { Request, Response } from 'express';
import type { AppError } from '@hireloop/platform';
import { errorBodyJson, retryAfter } from './errors.js';

/**
 * An /api/v1 response as a value: what the dispatcher produces, what idempotency stores and
 * replays, and what is finally written, once, by sendRestResponse.
 */
export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Produces the response to an /api/v1 request without sending it. */
export type RestResponder = (req: Request) => Promise<RestResponse>;

/**
 * Sends a response value as it is: the one writer of /api/v1 route responses. HEAD gets no body
 * (Node drops it) but the GET's Content-Length, which Node counts only for a body it sends; a 204
 * or 304 never has one (RFC 9110 §8.6).
 */
export function sendRestResponse(res: Response, response: RestResponse): void {
  res.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.status !== 204 && response.status !== 304) res.setHeader('Content-Length', Buffer.byteLength(response.body));
  res.end(response.body);
}

/** PRODUCT.md §3's envelope for an error as a response value; `status` only where the code's own does not fit (405). */
export function restErrorResponse(error: AppError, requestId: string, extra: { status?: number; headers?: Record<string, string> } = {}): RestResponse {
  return {
    status: extra.status ?? error.status,
    headers: { 'Content-Type': 'application/json', ...retryAfter(error), ...extra.headers },
    body: errorBodyJson(error, requestId),
  };
}
