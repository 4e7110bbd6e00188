import type { NextFunction, Request, Response } from 'express';
import { AppError, rethrowServiceError } from '@hireloop/platform';
import { SessionToken, type User } from '@hireloop/contracts';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { sendError } from '../api/errors.js';

export const SESSION_COOKIE = 'hl_session';

/**
 * The session cookie's token, or undefined when there is none or it cannot be one: a value the
 * identity service would refuse (too long) never travels to it (issue 18 item 4).
 */
export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== SESSION_COOKIE) continue;
    const token = decodeURIComponent(value.join('='));
    return SessionToken.safeParse(token).success ? token : undefined;
  }
  return undefined;
}

/**
 * Session routes refuse API keys outright (seed §5.5, PRODUCT.md §3): a bearer token here is
 * 401 bearer_not_accepted, whatever else the request carries.
 */
export function refuseBearer() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.headers.authorization?.toLowerCase().startsWith('bearer')) {
      return sendError(req, res, new AppError('bearer_not_accepted', 'This route is for the web console and uses a session cookie; API keys work only under /api/v1.'));
    }
    next();
  };
}

/** Resolves the session cookie to a user, or answers 401. */
export function requireSession(services: ServiceClients) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readSessionCookie(req);
    if (!token) return sendError(req, res, new AppError('unauthenticated', 'Log in first (POST /auth/login).'));
    try {
      const user = await services.identityAsSystem(locals(req).requestId).sessions.verify.query({ token }).catch(rethrowServiceError);
      if (!user) return sendError(req, res, new AppError('unauthenticated', 'The session has expired; log in again.'));
      (req as Request & { user: User }).user = user;
      next();
    } catch (err) {
      next(err);
    }
  };
}

export function sessionUser(req: Request): User {
  return (req as Request & { user: User }).user;
}
