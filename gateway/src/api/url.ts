import type { NextFunction, Request, Response } from 'express';
import type { ErrorDetail } from '@hireloop/contracts';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';
import { reachesInput, routeOf } from '../rest/dispatch.js';

const BAD_BYTES = 'is not valid percent-encoded UTF-8';

function decodes(part: string): string | null {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * 422 validation_failed for a path or query that does not percent-decode to UTF-8 (PRODUCT.md §3:
 * bad bytes in a query or path), naming the parameter. What decodes is left to the route's schema,
 * whose string types refuse U+0000 and lone surrogates.
 */
export function wellFormedUrl() {
  return (req: Request, res: Response, next: NextFunction) => {
    const url = req.originalUrl;
    const q = url.indexOf('?');
    const details: ErrorDetail[] = [];
    if (decodes(q < 0 ? url : url.slice(0, q)) === null) details.push({ path: 'path', message: BAD_BYTES });
    if (q >= 0) {
      for (const pair of url.slice(q + 1).split('&')) {
        const eq = pair.indexOf('=');
        const name = decodes(eq < 0 ? pair : pair.slice(0, eq));
        if (name === null) details.push({ path: 'query', message: `a parameter name ${BAD_BYTES}` });
        else if (eq >= 0 && decodes(pair.slice(eq + 1)) === null) details.push({ path: name.slice(0, 100), message: BAD_BYTES });
      }
    }
    if (!details.length) return next();
    sendError(req, res, new AppError('validation_failed', 'The URL holds bytes that are not UTF-8.', details));
  };
}

/**
 * /api/v1: POST, PUT and PATCH routes take their input from the JSON body only, so a query string
 * there would be ignored. Unknown parameters are refused, not ignored (PRODUCT.md §5), so a query
 * parameter on such a route is 422, each named in `details`; before Idempotency-Key, so the
 * refusal is not stored as the key's answer.
 */
export function noQueryOnBodyRoutes() {
  return (req: Request, res: Response, next: NextFunction) => {
    const q = req.originalUrl.indexOf('?');
    if (q < 0) return next();
    const match = routeOf(req);
    if (match.kind !== 'route' || match.route.inputFrom !== 'body') return next();
    const names = [...new Set(new URLSearchParams(req.originalUrl.slice(q + 1)).keys())];
    // A path no route takes goes on to its 404 or 405, a key without the route's scope to its 403.
    if (names.length === 0 || !reachesInput(req)) return next();
    const details = names.map((name) => ({ path: name.slice(0, 100), message: 'unknown field or parameter' }));
    sendError(req, res, new AppError('validation_failed', 'This route takes its input in the JSON body only; remove the query parameters.', details));
  };
}
