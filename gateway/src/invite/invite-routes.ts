import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError, appErrorFromClientError, clientIpPrefix, type Logger } from '@hireloop/platform';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import type { InviteView } from '@hireloop/recruiting/invites/invites.router';
import { InviteToken } from '@hireloop/contracts';
import { verifyUtf8Form } from './form-utf8.js';
import { invitePage, notFoundPage, unavailablePage } from './invite-html.js';
import { appErrorOfThrown } from '../surface-errors.js';
import { htmlErrorPage } from '../api/errors.js';

/**
 * The candidate's invite page at /i/<token>: no login, the unguessable token is the credential.
 * Plain HTML forms (no script needed); each step redirects back to the page (POST → 303 → GET).
 */
export function inviteRoutes(services: ServiceClients, logger: Logger) {
  const router = Router();
  // Cache-Control, Referrer-Policy and the CSP are set where this is mounted (api/security-headers.ts).
  router.use((_req, res, next) => {
    res.setHeader('X-Robots-Tag', 'noindex');
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 100, verify: verifyUtf8Form }));
  // A token that cannot be one is the page of an unknown invite, before any call: it travels to
  // recruiting in a URL, where 16 000 characters overflowed the header limit (issue 18 item 4).
  router.param('token', (req, res, next, token: string) => {
    if (!InviteToken.safeParse(token).success) return void res.status(404).type('html').send(notFoundPage());
    next();
  });

  const fail = (req: Request, res: Response, err: unknown) => {
    const app = err instanceof AppError ? err : appErrorFromClientError(err);
    if (app?.code === 'not_found' || app?.code === 'validation_failed') return res.status(404).type('html').send(notFoundPage());
    logger.warn({ err, requestId: locals(req).requestId }, 'invite page failed');
    res.status(503).setHeader('Retry-After', '30').type('html').send(unavailablePage());
  };

  /** The page for the interview's state; the AI notice names the inviting organization as the contact. */
  const render = async (req: Request, view: InviteView, token: string, problem?: { message: string; answers: string[] }) => {
    const organization = await services.identityAsSystem(locals(req).requestId).organizations.get.query({ id: view.organizationId });
    return invitePage(view, token, organization.name, problem);
  };
  /** Recruiting's invite procedures for this request; the client's address prefix goes to the audit rows of its writes. */
  const recruitingFor = (req: Request) => services.recruitingAsSystem(locals(req).requestId, clientIpPrefix(req.ip));
  const field = (req: Request, name: string) => {
    const value = (req.body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  };

  router.get('/:token', async (req, res) => {
    const token = req.params['token']!;
    try {
      const view = await recruitingFor(req).invites.view.query({ token });
      res.type('html').send(await render(req, view, token));
    } catch (err) {
      fail(req, res, err);
    }
  });

  // Starting needs the candidate's explicit consent (PRODUCT.md §10): the form's `consent=agree`
  // and the version of the notice it showed. A post without them gets the page again, 422.
  router.post('/:token/start', async (req, res) => {
    const token = req.params['token']!;
    const recruiting = recruitingFor(req);
    const noticeVersion = field(req, 'notice');
    try {
      if (field(req, 'consent') !== 'agree' || !noticeVersion) {
        const view = await recruiting.invites.view.query({ token });
        const message = 'To start, read the notice and choose “I agree, start”.';
        return res.status(422).type('html').send(await render(req, view, token, { message, answers: [] }));
      }
      await recruiting.invites.start.mutate({ token, consent: { noticeVersion } });
    } catch (err) {
      // Starting twice, or a page left open after expiry: show the page as it now is.
      if (appErrorFromClientError(err)?.code !== 'conflict') return fail(req, res, err);
    }
    res.redirect(303, `/i/${encodeURIComponent(token)}`);
  });

  router.post('/:token/submit', async (req, res) => {
    const token = req.params['token']!;
    const raw = (req.body as { answer?: string | string[] } | undefined)?.answer ?? [];
    const answers = (Array.isArray(raw) ? raw : [raw]).map((a) => String(a));
    const recruiting = recruitingFor(req);
    try {
      await recruiting.invites.submit.mutate({ token, answers });
      res.redirect(303, `/i/${encodeURIComponent(token)}`);
    } catch (err) {
      const app = appErrorFromClientError(err);
      if (app?.code === 'validation_failed' || app?.code === 'conflict') {
        try {
          const view = await recruiting.invites.view.query({ token });
          const message = app.code === 'conflict' ? app.message : 'Please answer every question before submitting.';
          return res.status(app.code === 'conflict' ? 409 : 422).type('html').send(await render(req, view, token, { message, answers }));
        } catch (again) {
          return fail(req, res, again);
        }
      }
      fail(req, res, err);
    }
  });
  // "I'd prefer not to be interviewed by an AI": the interview becomes `declined` and the page
  // says a person will be offered instead.
  router.post('/:token/decline', async (req, res) => {
    const token = req.params['token']!;
    try {
      await recruitingFor(req).invites.decline.mutate({ token });
    } catch (err) {
      // Declining after starting, or a page left open after expiry: show the page as it now is.
      if (appErrorFromClientError(err)?.code !== 'conflict') return fail(req, res, err);
    }
    res.redirect(303, `/i/${encodeURIComponent(token)}`);
  });

  // Bad input the router or its body parser refused (a token that does not percent-decode, a
  // body too large or in another charset): a 4xx page, never the 503 of a failure of ours.
  router.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const app = appErrorOfThrown(err);
    if (!app || app.status >= 500) return fail(req, res, err);
    if (app.code === 'validation_failed' || app.code === 'route_not_found') return res.status(404).type('html').send(notFoundPage());
    res.status(app.status).type('html').send(htmlErrorPage(app.status, 'The form could not be read; go back and try again.'));
  });
  return router;
}
