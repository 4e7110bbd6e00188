import { Router } from 'express';
import { z } from 'zod';
import { text } from '@hireloop/contracts';
import { AppError, clientIpPrefix, rethrowServiceError, zodIssuesToDetails } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import { errorResponse, sendError } from '../api/errors.js';
import { jsonBody } from '../api/body.js';
import { readSessionCookie, requireSession, SESSION_COOKIE, sessionUser } from './session.js';

const LoginBody = z.object({ email: text().min(1).max(254), password: text().min(1).max(1000) });

/** /auth/login, /auth/logout, /auth/session: the console's cookie session (HttpOnly, SameSite=Lax). */
export function authRoutes(services: ServiceClients, options: { secureCookies: boolean; ttlHours: number }) {
  const router = Router();
  const cookie = { httpOnly: true, sameSite: 'lax' as const, secure: options.secureCookies, path: '/' };
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
      res.cookie(SESSION_COOKIE, session.token, { ...cookie, maxAge: options.ttlHours * 3600_000 });
      res.json({ data: { user: session.user, expiresAt: session.expiresAt } });
    } catch (err) {
      next(err);
    }
  });

  router.post('/logout', async (req, res, next) => {
    const token = readSessionCookie(req);
    try {
      if (token) await services.identityAsSystem(locals(req).requestId, clientIpPrefix(req.ip)).sessions.logout.mutate({ token }).catch(rethrowServiceError);
      res.clearCookie(SESSION_COOKIE, cookie);
      res.status(204).end();
    } catch (err) {
      next(err);
    }
  });

  router.get('/session', requireSession(services), (req, res) => {
    res.json({ data: { user: sessionUser(req) } });
  });

  // Any other method on these paths is 405 with `Allow`, in the envelope, as /api/v1 answers it
  // (Express would answer OPTIONS itself: 200 text/plain; and GET /auth/login was a 404).
  for (const [path, allow] of [['/login', 'POST'], ['/logout', 'POST'], ['/session', 'GET, HEAD']] as const) {
    router.all(path, (req, res) => {
      const error = new AppError('route_not_found', `${req.baseUrl}${path} does not answer ${req.method}; it answers ${allow}.`);
      const { contentType, body } = errorResponse(req.originalUrl.split('?')[0]!, error, locals(req).requestId);
      res.status(405).setHeader('Allow', allow);
      res.type(contentType).send(body);
    });
  }

  return router;
}
