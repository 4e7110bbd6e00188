import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * JSON bodies only, ≤ 1 MiB (PRODUCT.md §4). Parse failures and oversize bodies become the
 * envelope's 400 invalid_json and 413 payload_too_large; another content type 415.
 */
export function jsonBody() {
  const parse = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0' || req.headers['transfer-encoding'] !== undefined;
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)) return next();
    if (req.method === 'DELETE' && !hasBody) return next();
    const type = req.headers['content-type'];
    if (hasBody && !(type && /^application\/([a-z.+-]*\+)?json\b/i.test(type))) {
      return sendError(req, res, new AppError('unsupported_media_type', `Send the body as application/json${type ? `, not ${type.split(';')[0]}` : ''}.`));
    }
    if (!hasBody) {
      req.body = {};
      req.headers['content-type'] ??= 'application/json';
      return next();
    }
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { type?: string; status?: number };
      if (e.type === 'entity.too.large' || e.status === 413) return sendError(req, res, new AppError('payload_too_large', 'The request body is larger than 1 MiB.'));
      if (e.type === 'entity.parse.failed') return sendError(req, res, new AppError('invalid_json', 'The request body is not valid JSON.'));
      return next(err);
    });
  };
}
