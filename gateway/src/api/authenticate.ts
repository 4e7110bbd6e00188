import type { NextFunction, Request, Response } from 'express';
import { AppError, isWellFormedApiKey, rethrowServiceError } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { sendError } from './errors.js';

type RateLimit = { limit: number; windowSeconds: number; remaining: number; resetSeconds: number; retryAfterSeconds: number; allowed: boolean };

/** PRODUCT.md §4: the IETF draft fields and the widely used X-RateLimit-* ones, on every response. */
function setRateLimitHeaders(res: Response, rl: RateLimit): void {
  res.setHeader('RateLimit-Policy', `"default";q=${rl.limit};w=${rl.windowSeconds}`);
  res.setHeader('RateLimit', `"default";r=${rl.remaining};t=${rl.resetSeconds}`);
  res.setHeader('X-RateLimit-Limit', String(rl.limit));
  res.setHeader('X-RateLimit-Remaining', String(rl.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + rl.resetSeconds));
}

/**
 * A 401 with the challenge RFC 7235 §3.1 requires on every 401: `Bearer`, and RFC 6750's
 * `error="invalid_token"` when a key was sent but is not accepted.
 */
export function refuseCredentials(req: Request, res: Response, error: AppError): void {
  res.setHeader('WWW-Authenticate', error.code === 'missing_api_key' ? 'Bearer realm="hireloop"' : 'Bearer realm="hireloop", error="invalid_token"');
  sendError(req, res, error);
}

/**
 * Bearer-key authentication for /api/v1: a malformed key or bad checksum is refused here without
 * any I/O; otherwise one call to the identity service verifies the key and draws from its rate
 * limit (never cached: revocation shows on the next request).
 */
export function authenticateApiKey(services: ServiceClients) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    if (!header) return refuseCredentials(req, res, new AppError('missing_api_key', 'Send your API key as `Authorization: Bearer hl_…`.'));
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1];
    if (!key || !isWellFormedApiKey(key)) return refuseCredentials(req, res, new AppError('invalid_api_key', 'The API key is malformed or unknown.'));
    try {
      const result = await services
        .identityAsSystem(locals(req).requestId)
        .apiKeys.authenticate.mutate({ key })
        .catch(rethrowServiceError);
      if (result.status === 'invalid') return refuseCredentials(req, res, new AppError('invalid_api_key', 'The API key is malformed or unknown.'));
      if (result.status === 'revoked') return refuseCredentials(req, res, new AppError('revoked_api_key', 'This API key has been revoked.'));
      setRateLimitHeaders(res, result.rateLimit);
      if (!result.rateLimit.allowed) {
        res.setHeader('Retry-After', String(result.rateLimit.retryAfterSeconds));
        return sendError(req, res, new AppError('rate_limited', `Rate limit of ${result.rateLimit.limit} requests per ${result.rateLimit.windowSeconds} s exceeded; retry after ${result.rateLimit.retryAfterSeconds} s.`));
      }
      locals(req).caller = { organization: result.organization, key: result.key, scopes: result.scopes };
      next();
    } catch (err) {
      next(err);
    }
  };
}
