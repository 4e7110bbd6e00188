import { join } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { AppError, appErrorFromClientError, clientIpPrefix, type Logger } from '@hireloop/platform';
import { Answer, AnswerTurnKey, INTERVIEW_LANGUAGES, MAX_ANSWER_CHARS, TurnSignals, type InterviewLanguage } from '@hireloop/contracts';
import type { ServiceClients } from '../services.js';
import { locals } from '../request-context.js';
import type { InviteView } from '@hireloop/recruiting/invites/invites.router';
import { InviteToken } from '@hireloop/contracts';
import { formUnreadablePage, invitePage, notFoundPage, showsOrganization, unavailablePage, type PageProblem } from './invite-html.js';
import { textsFor } from './invite-texts.js';
import { verifyUtf8Form } from './form-utf8.js';
import { appErrorOfThrown } from '../surface-errors.js';

export interface InviteRouteOptions {
  /** The page's script and stylesheet (gateway/static/invite/). */
  assetsDir: string;
}

/** The page's own files: the same for every invite, so a browser may keep them (the pages themselves are no-store). */
const ASSETS: Record<string, string> = { 'interview.js': 'text/javascript', 'interview.css': 'text/css' };

/**
 * The candidate's invite page at /i/<token>: no login, the unguessable token is the credential.
 * Plain HTML forms first (every step works without script): each step is a POST that redirects
 * back to the page (POST → 303 → GET), and the page shows the interview's state; in progress,
 * the one turn the candidate answers now. The script only spares the reload (interview.js).
 */
export function inviteRoutes(services: ServiceClients, logger: Logger, options: InviteRouteOptions) {
  const router = Router();
  // Cache-Control, Referrer-Policy and the CSP are set where this is mounted (api/security-headers.ts).
  router.use((_req, res, next) => {
    res.setHeader('X-Robots-Tag', 'noindex');
    next();
  });
  router.get('/assets/:file', (req, res, next) => {
    const type = ASSETS[req.params['file']!];
    if (!type) return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type(type).sendFile(join(options.assetsDir, req.params['file']!), { cacheControl: false });
  });
  router.use(express.urlencoded({ extended: false, limit: '1mb', parameterLimit: 100, verify: verifyUtf8Form }));
  // A token that cannot be one is the page of an unknown invite, before any call: it travels to
  // recruiting in a URL, where 16 000 characters overflowed the header limit (issue 18 item 4).
  router.param('token', (req, res, next, token: string) => {
    if (!InviteToken.safeParse(token).success) return void res.status(404).type('html').send(notFoundPage(browserLanguage(req)));
    next();
  });

  // A page with no interview to read its language from speaks the browser's (Accept-Language).
  const browserLanguage = (req: Request): InterviewLanguage => (req.acceptsLanguages(...INTERVIEW_LANGUAGES) || 'en') as InterviewLanguage;
  const fail = (req: Request, res: Response, err: unknown) => {
    const app = err instanceof AppError ? err : appErrorFromClientError(err);
    if (app?.code === 'not_found' || app?.code === 'validation_failed') return res.status(404).type('html').send(notFoundPage(browserLanguage(req)));
    logger.warn({ err, requestId: locals(req).requestId }, 'invite page failed');
    res.status(503).setHeader('Retry-After', '30').type('html').send(unavailablePage(browserLanguage(req)));
  };

  /**
   * The page for the interview's state. The AI notice and the declined page name the inviting
   * organization (the contact), asked of identity only for those pages: a turn needs no name.
   */
  const render = async (req: Request, view: InviteView, token: string, problem?: PageProblem) => {
    const organization = showsOrganization(view) ? (await services.identityAsSystem(locals(req).requestId).organizations.get.query({ id: view.organizationId })).name : '';
    return invitePage(view, token, organization, problem);
  };
  /** Recruiting's invite procedures for this request; the client's address prefix goes to the audit rows of its writes. */
  const recruitingFor = (req: Request) => services.recruitingAsSystem(locals(req).requestId, clientIpPrefix(req.ip));
  const field = (req: Request, name: string) => {
    const value = (req.body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  const pageUrl = (token: string) => `/i/${encodeURIComponent(token)}`;
  /** The page as it is now, with a status and something to tell the candidate. */
  const show = async (req: Request, res: Response, token: string, status: number, problem?: (view: InviteView) => PageProblem | undefined) => {
    try {
      const view = await recruitingFor(req).invites.view.query({ token });
      res.status(status).type('html').send(await render(req, view, token, problem?.(view)));
    } catch (err) {
      fail(req, res, err);
    }
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
    const noticeVersion = field(req, 'notice');
    if (field(req, 'consent') !== 'agree' || !noticeVersion) {
      return show(req, res, token, 422, (view) => ({ message: textsFor(view.language).consentMissing }));
    }
    try {
      await recruitingFor(req).invites.start.mutate({ token, consent: { noticeVersion } });
    } catch (err) {
      // Starting twice, or a page left open after expiry: show the page as it now is.
      if (appErrorFromClientError(err)?.code !== 'conflict') return fail(req, res, err);
    }
    res.redirect(303, pageUrl(token));
  });

  // One answer to the turn the form showed (its `turn` field is the key: sent twice, stored
  // once). Bad input and stale pages get the page again with the text kept in the form. The
  // page's script asks for the next page in the answer (`Prefer: return=representation`, RFC
  // 7240): one request and one call to recruiting per turn instead of the redirect's two; the
  // plain form gets the 303.
  router.post('/:token/answer', async (req, res) => {
    const token = req.params['token']!;
    // A turn field that cannot be a turn's key (a forged form) is a stale page, not an unknown invite.
    const sentTurn = field(req, 'turn') ?? '';
    const turnId = AnswerTurnKey.safeParse(sentTurn).success ? sentTurn : '';
    // A form sends a textarea's line breaks as CRLF (the page's script as LF): stored and counted as one character each.
    const answer = (field(req, 'answer') ?? '').replace(/\r\n?/g, '\n');
    const kept = { kept: answer };
    const invalid = { ...kept, invalid: true };
    // Characters are code points, as the API counts them (an emoji is one, not two UTF-16 units).
    const length = [...answer.trim()].length;
    if (length === 0) return show(req, res, token, 422, (view) => ({ message: textsFor(view.language).answerEmpty, ...invalid }));
    if (length > MAX_ANSWER_CHARS) return show(req, res, token, 422, (view) => ({ message: textsFor(view.language).answerTooLong(length, MAX_ANSWER_CHARS), ...invalid }));
    // What no answer can hold (U+0000): the page says so, with the rest of the text kept.
    if (!Answer.safeParse(answer).success) {
      return show(req, res, token, 422, (view) => ({ message: textsFor(view.language).answerUnstorable, kept: answer.replaceAll('\u0000', ''), invalid: true }));
    }
    try {
      const inPlace = prefersRepresentation(req);
      const result = await recruitingFor(req).invites.answer.mutate({ token, turnId, answer, signals: signalsOf(field(req, 'signals')), withView: inPlace });
      if (result.outcome === 'stale' && result.view) {
        return res.status(409).type('html').send(await render(req, result.view, token, { message: textsFor(result.view.language).staleTurn, ...kept }));
      }
      if (!inPlace || !result.view) return res.redirect(303, pageUrl(token));
      res.setHeader('Preference-Applied', 'return=representation');
      res.type('html').send(await render(req, result.view, token));
    } catch (err) {
      const code = appErrorFromClientError(err)?.code;
      // Not answerable now (not started, no consent, ended meanwhile): the page says why.
      if (code === 'conflict') return show(req, res, token, 409);
      fail(req, res, err);
    }
  });

  // The one-page form of before the conversation, still open in a browser: nothing is stored;
  // the current turn comes back with the answer written for its question kept.
  router.post('/:token/submit', (req, res) => {
    const token = req.params['token']!;
    const raw = (req.body as { answer?: string | string[] } | undefined)?.answer ?? [];
    const answers = (Array.isArray(raw) ? raw : [raw]).map(String);
    return show(req, res, token, 409, (view) => {
      if (!view.turn) return undefined;
      const written = view.turn.kind === 'question' ? answers[view.turn.questionNumber - 1] : undefined;
      return { message: textsFor(view.language).staleForm, kept: written ?? '' };
    });
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
    res.redirect(303, pageUrl(token));
  });

  // The address a form's answer page leaves in the address bar (a 409 or 422 page is the answer
  // to its POST): opened again, in a new tab or after a restart, it is the interview's page.
  router.get(['/:token/start', '/:token/answer', '/:token/submit', '/:token/decline'], (req, res) => res.redirect(303, pageUrl(req.params['token'] as string)));

  // Bad input the router or its body parser refused (a token that does not percent-decode, a
  // body too large or in another charset): a 4xx page, never the 503 of a failure of ours.
  router.use(async (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const app = appErrorOfThrown(err);
    if (!app || app.status >= 500) return fail(req, res, err);
    if (app.code === 'validation_failed' || app.code === 'route_not_found') return res.status(404).type('html').send(notFoundPage(browserLanguage(req)));
    res.status(app.status).type('html').send(formUnreadablePage(await interviewLanguage(req)));
  });

  /** The language of the interview whose form this was (the path's token), else the browser's. */
  const interviewLanguage = async (req: Request): Promise<InterviewLanguage> => {
    const token = req.path.split('/')[1] ?? '';
    if (!InviteToken.safeParse(token).success) return browserLanguage(req);
    return recruitingFor(req).invites.view.query({ token }).then((view) => view.language, () => browserLanguage(req));
  };
  return router;
}

/** Whether the request asks for the resulting page in the answer: `Prefer: return=representation` (RFC 7240), among other preferences or not. */
function prefersRepresentation(req: Request): boolean {
  const header = req.headers['prefer'];
  if (!header) return false;
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',').some((preference) => preference.split(';')[0]!.trim().toLowerCase().replace(/\s*=\s*/, '=') === 'return=representation');
}

/**
 * The integrity signals the script sent with an answer (PRODUCT.md §12), or none: they are
 * metadata, so a malformed set is dropped rather than costing the candidate the answer.
 */
function signalsOf(raw: string | undefined): TurnSignals | undefined {
  if (!raw) return undefined;
  try {
    const parsed = TurnSignals.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
