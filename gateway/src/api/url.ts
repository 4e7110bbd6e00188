import type { NextFunction, Request, Response } from 'express';
import type { ErrorDetail } from '@hireloop/contracts';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';

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
