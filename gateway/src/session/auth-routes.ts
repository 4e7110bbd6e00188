import { Router } from 'express';
import { z } from 'zod';
import { text } from '@hireloop/contracts';
import { AppError, clientIpPrefix, rethrowServiceError, zodIssuesToDetails } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { sendError } from '../api/errors.js';
import { jsonBody } from '../api/body.js';
import { readSessionCookie, requireSession, sessionCookieName, sessionUser } from './session.js';

const LoginBody = z.object({ email: text().min(1).max(254), password: text().min(1).max(1000) });

/** /auth/login, /auth/logout, /auth/session: the console's cookie session (HttpOnly, SameSite=Lax). */
export function authRoutes(services: ServiceClients, options: { secureCookies: boolean; ttlHours: number }) {
  const router = Router();
  const cookie = { httpOnly: true, sameSite: 'lax' as const, secure: options.secureCookies, path: '/' };
  const cookieName = sessionCookieName(options.secureCookies);
  router.use(jsonBody());

  router.post('/login', async (req, res, next) => {
    const parsed = LoginBody.safeParse(req.body);
    if (!parsed.success) return sendError(req, res, new AppError('validation_failed', 'E-mail and password are required.', zodIssuesToDetails(parsed.error)));
    try {
      // req.ip honours the `trust proxy` setting (TRUST_PROXY): behind a proxy, the client it saw.
      // The address goes to the login throttle; only its prefix to the audit trail.
      const session = await services
        .identityAsSystem(locals(req).requestId, clientIpPrefix(req.ip))
        .sessions.login.mutate({ ...parsed.data, ip: req.ip ?? null })
        .catch(rethrowServiceError);
      if (session.outcome === 'throttled') {
        res.setHeader('Retry-After', String(session.retryAfterSeconds));
        return sendError(req, res, new AppError('rate_limited', `Too many failed logins; try again in ${session.retryAfterSeconds} s.`));
      }
      res.cookie(cookieName, session.token, { ...cookie, maxAge: options.ttlHours * 3600_000 });
      res.json({ data: { user: session.user, expiresAt: session.expiresAt } });
    } catch (err) {
      next(err);
    }
  });

  router.post('/logout', async (req, res, next) => {
    const token = readSessionCookie(req, cookieName);
    try {
      if (token) await services.identityAsSystem(locals(req).requestId, clientIpPrefix(req.ip)).sessions.logout.mutate({ token }).catch(rethrowServiceError);
      res.clearCookie(cookieName, cookie);
      res.status(204).end();
    } catch (err) {
      next(err);
    }
  });

  router.get('/session', requireSession(services, cookieName), (req, res) => {
    res.json({ data: { user: sessionUser(req) } });
  });

  // Any other method on these paths is 404 route_not_found in the envelope, as every other one
  // is here; without this, Express answers OPTIONS itself (200 text/plain, "POST").
  for (const [path, allow] of [['/login', 'POST'], ['/logout', 'POST'], ['/session', 'GET']] as const) {
    router.all(path, (req, res) => sendError(req, res, new AppError('route_not_found', `No route ${req.method} ${req.baseUrl}${path}; it answers ${allow}.`)));
  }

  return router;
}
