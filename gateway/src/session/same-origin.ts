import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@hireloop/platform';
import { sendError } from '../api/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const originOf = (value: string): string | null => {
  try {
    return new URL(value).origin;
  } catch {
    return null; // `Origin: null` (sandboxed frames, file: pages) and garbage alike
  }
};

/**
 * Cookie-authenticated routes (PRODUCT.md §11): a state-changing request from a browser must come
 * from our own origin, checked by `Origin`, else by `Sec-Fetch-Site`; otherwise 403 forbidden.
 * A request with neither header is not from a browser (curl, a script) and carries no ambient
 * cookie an attacker could ride on, so it passes. This backs up SameSite=Lax, which lets
 * same-site (other subdomain) pages through.
 */
export function requireSameOrigin(publicBaseUrl: string) {
  const ours = new URL(publicBaseUrl).origin;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const allowed = origin !== undefined ? originOf(origin) === ours : site === undefined || site === 'same-origin';
    if (allowed) return next();
    sendError(req, res, new AppError('forbidden', 'Cross-origin requests to the console routes are refused.'));
  };
}
