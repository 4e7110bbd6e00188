import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';

/**
 * The most `name=value` pairs a query string may hold. Node's query parser stops at 1 000 and
 * drops the rest, so a filter or `limit` placed after them was silently ignored and the whole
 * list came back (issue 18 item 2); beyond it, the request is refused instead.
 */
export const MAX_QUERY_PAIRS = 1000;

/** 422 validation_failed for a query string of more than MAX_QUERY_PAIRS pairs, empty ones (`&&`) counted. */
export function queryPairLimit() {
  return (req: Request, res: Response, next: NextFunction) => {
    const q = req.originalUrl.indexOf('?');
    if (q < 0) return next();
    let pairs = 1;
    for (let i = req.originalUrl.indexOf('&', q); i >= 0; i = req.originalUrl.indexOf('&', i + 1)) pairs++;
    if (pairs <= MAX_QUERY_PAIRS) return next();
    sendError(req, res, new AppError('validation_failed', `The query string holds ${pairs} parameters; at most ${MAX_QUERY_PAIRS} are read.`, [
      { path: 'query', message: `more than ${MAX_QUERY_PAIRS} parameters` },
    ]));
  };
}
