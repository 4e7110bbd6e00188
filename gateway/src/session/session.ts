import type { NextFunction, Request, Response } from 'express';
import { AppError, rethrowServiceError } from '@hireloop/platform';
import { SessionToken, type User } from '@hireloop/contracts';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { sendError } from '../api/errors.js';

/**
 * The session cookie's name. Over https it is `__Host-hl_session`: a browser keeps such a cookie
 * only when it is Secure, for the whole host (`Path=/`) and without `Domain`, so a sibling
 * subdomain cannot plant one (a planted `hl_session` could log the console into another
 * session). Over http (development) a browser refuses the prefix, so it is plain `hl_session`.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-hl_session' : 'hl_session';
}

/**
 * The session cookie's token, or undefined when there is none or it cannot be one: a value the
 * identity service would refuse (too long) never travels to it (issue 18 item 4).
 */
export function readSessionCookie(req: Request, cookieName: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== cookieName) continue;
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
export function requireSession(services: ServiceClients, cookieName: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readSessionCookie(req, cookieName);
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
