import { fileURLToPath } from 'node:url';
import express, { type Request, type Response } from 'express';
import { AppError, InternalTokenCache, type KeyRing, type Logger, type SecretBox } from '@hireloop/platform';
import type { ServiceClients } from './services.js';
import type { GatewayDb } from './db.js';
import { requestId } from './api/request-id.js';
import { authenticateApiKey } from './api/authenticate.js';
import { jsonBody } from './api/body.js';
import { noQueryOnBodyRoutes, wellFormedUrl } from './api/url.js';
import { refuseAmbiguousHeaders } from './api/duplicate-headers.js';
import { queryPairLimit } from './api/query-limit.js';
import { idempotency } from './api/idempotency.js';
import { voidingRepliesOnErasure } from './api/erasure-replies.js';
import { sendError } from './api/errors.js';
import { restErrorResponse, sendRestResponse } from './api/rest-response.js';
import { locals } from './request-context.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { restRouter } from './rest/router.js';
import { routeTableOf, type RouteTable } from './rest/route-table.js';
import { createDispatcher, reachesInput, routeApiRequests } from './rest/dispatch.js';
import { referenceRoutes } from './reference/reference.js';
import { inviteRoutes } from './invite/invite-routes.js';
import { authRoutes } from './session/auth-routes.js';
import { refuseBearer, requireSession, sessionCookieName } from './session/session.js';
import { trpcProxy } from './session/trpc-proxy.js';
import { requireSameOrigin } from './session/same-origin.js';
import { noStore, pagePolicy, securityHeaders, servedOverHttps } from './api/security-headers.js';
import { surfaceErrors } from './surface-errors.js';
import { consoleRoutes } from './console/console-routes.js';

const CONSOLE_DIST = fileURLToPath(new URL('../../apps/console/dist', import.meta.url));
const FAVICON = fileURLToPath(new URL('../static/favicon.ico', import.meta.url));
const INVITE_ASSETS = fileURLToPath(new URL('../static/invite', import.meta.url));
/** The API changelog, served at /developers/changelog. */
const CHANGELOG = fileURLToPath(new URL('../../docs/changelog.md', import.meta.url));

export interface GatewayDeps {
  services: ServiceClients;
  serviceUrls: Record<string, string>;
  db: GatewayDb;
  logger: Logger;
  publicBaseUrl: string;
  internalTokenKeys: KeyRing;
  /** Seals stored idempotent responses. */
  storedResponses: SecretBox;
  sessionTtlHours: number;
  /** Express `trust proxy` (TRUST_PROXY): decides what req.ip is. */
  trustProxy: boolean | number | string[];
  /** The Temporal UI for operators ('' for none); the console's header links to it. */
  temporalUiUrl: string;
  ready: () => Promise<void>;
  /** The /api/v1 route table; by default the REST router's, built once here. */
  routes?: RouteTable;
}

export function createGatewayApp(deps: GatewayDeps) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', deps.trustProxy);
  app.use(requestId());
  app.use(securityHeaders(deps.publicBaseUrl));

  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => {
    deps.ready().then(
      () => res.json({ status: 'ready' }),
      () => res.status(503).json({ status: 'unavailable' }),
    );
  });

  // The public API. The document is built once: it only changes with the code.
  const openApiJson = JSON.stringify(buildOpenApiDocument(deps.publicBaseUrl));
  app.use('/api/v1', noStore());
  app.get('/api/v1/openapi.json', (_req, res) => void res.type('application/json').send(openApiJson));
  // The document needs no key, so its other methods are its 405, before the key is asked for.
  app.all('/api/v1/openapi.json', (req, res) => {
    const error = new AppError('route_not_found', `/api/v1/openapi.json does not answer ${req.method}; it answers GET, HEAD.`);
    sendRestResponse(res, restErrorResponse(error, locals(req).requestId, { status: 405, headers: { Allow: 'GET, HEAD' } }));
  });
  // Each request: its key verified, its route matched once, its URL and body read, then the
  // dispatcher's response value, stored under an Idempotency-Key where one is sent.
  const dispatch = createDispatcher({ router: restRouter, services: deps.services, publicBaseUrl: deps.publicBaseUrl, logger: deps.logger });
  app.use(
    '/api/v1',
    refuseAmbiguousHeaders(),
    authenticateApiKey(deps.services),
    queryPairLimit(),
    routeApiRequests(deps.routes ?? routeTableOf(restRouter)),
    wellFormedUrl(),
    noQueryOnBodyRoutes(),
    jsonBody({ readIf: reachesInput, getBodies: true }),
    idempotency(deps.db, deps.storedResponses, deps.logger, voidingRepliesOnErasure(deps.db, deps.services, dispatch)),
  );
  app.use('/developers', pagePolicy('reference'), referenceRoutes(CHANGELOG));
  // The token is in the URL: no-store, and the global Referrer-Policy no-referrer.
  app.use('/i', pagePolicy('invite'), noStore(), inviteRoutes(deps.services, deps.logger, { assetsDir: INVITE_ASSETS }));

  // Internal frontends: cookie sessions only, and state changes only from our own origin.
  const secureCookies = servedOverHttps(deps.publicBaseUrl);
  const sameOrigin = requireSameOrigin(deps.publicBaseUrl);
  app.use('/auth', noStore(), refuseBearer(), sameOrigin, authRoutes(deps.services, { secureCookies, ttlHours: deps.sessionTtlHours }));
  const tokens = new InternalTokenCache(deps.internalTokenKeys);
  app.all('/trpc/:service/{*rest}', noStore(), refuseBearer(), sameOrigin, requireSession(deps.services, sessionCookieName(secureCookies)), wellFormedUrl(), trpcProxy(deps.serviceUrls, tokens, deps.logger));
  app.use('/console', pagePolicy('console'), refuseBearer(), sameOrigin);
  // The console is the build of apps/console (React); its data comes from /auth and /trpc above.
  // Express matches /console/ here too; only the bare /console is redirected.
  app.get('/console', (req, res, next) => (req.path === '/console' ? res.redirect('/console/') : next()));
  app.use('/console', consoleRoutes({ distDir: CONSOLE_DIST, temporalUiUrl: deps.temporalUiUrl }));
  app.get('/favicon.ico', (_req, res) => res.sendFile(FAVICON, { maxAge: '1d' }));
  app.get('/', (_req, res) => res.redirect('/developers/reference'));

  app.use((req: Request, res: Response) => sendError(req, res, new AppError('route_not_found', `No route ${req.method} ${req.path}.`)));
  app.use(surfaceErrors(deps.logger));
  return app;
}
