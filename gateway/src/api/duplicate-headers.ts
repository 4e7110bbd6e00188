import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';
import { refuseCredentials } from './authenticate.js';
import { hasBody } from './body.js';

/** How many times the client sent a header: Node keeps only the first of some (Authorization, Content-Type). */
export function headerCount(req: Request, name: string): number {
  let count = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === name) count++;
  return count;
}

/**
 * Headers whose second copy Node drops without a word, which would let "the first one wins" decide
 * something the client left ambiguous (issue 18 item 3): two `Authorization` headers are 401
 * `invalid_api_key` (org A's key then org B's was served as A), two `Content-Type` headers on a
 * body 415.
 * Mounted on /api/v1 before authentication and the REST handler.
 */
export function refuseAmbiguousHeaders() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (headerCount(req, 'authorization') > 1) {
      return refuseCredentials(req, res, new AppError('invalid_api_key', 'Send one Authorization header with one API key.'));
    }
    if (hasBody(req) && headerCount(req, 'content-type') > 1) {
      return sendError(req, res, new AppError('unsupported_media_type', 'Send one Content-Type header.'));
    }
    next();
  };
}
