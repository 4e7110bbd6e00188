import { fstatSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AnyTRPCRouter, TRPCError } from '@trpc/server';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import type { Logger } from './logger.js';
import { InternalTokenVerifier } from './internal-auth.js';
import type { KeyRing } from './keys.js';
import { appErrorOf, type ServiceContext } from './trpc.js';
import { createTrpcCallHandler } from './trpc-call-handler.js';
import { IDEMPOTENCY_FINGERPRINT_HEADER, IDEMPOTENCY_SCOPE_HEADER } from './service-idempotency.js';
import { currentRequestId, newRequestId, isWellFormedRequestId, withRequestId } from './request-id.js';
import { AUDIT_ACTOR_HEADER, CLIENT_IP_PREFIX_HEADER } from './audit.js';

export interface ServiceServerOptions {
  name: string;
  router: AnyTRPCRouter;
  internalTokenKeys: KeyRing;
  logger: Logger;
  /** Readiness: resolves when every dependency answers. */
  ready: () => Promise<void>;
}

/**
 * The HTTP face of a service: its tRPC router under /trpc (trpc-call-handler.ts), plus /healthz
 * and /readyz.
 * Every tRPC call's context carries the verified internal caller (or null, which every
 * approved procedure builder refuses).
 */
export function createServiceServer(options: ServiceServerOptions): Server {
  const verifier = new InternalTokenVerifier(options.internalTokenKeys);
  const createContext = async (req: IncomingMessage): Promise<ServiceContext> => {
    const header = req.headers.authorization;
    const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    const scope = req.headers[IDEMPOTENCY_SCOPE_HEADER];
    const idempotencyScope = typeof scope === 'string' && /^[0-9a-f]{64}$/.test(scope) ? scope : null;
    const fingerprint = req.headers[IDEMPOTENCY_FINGERPRINT_HEADER];
    const idempotencyFingerprint = idempotencyScope && typeof fingerprint === 'string' && /^[0-9a-f]{64}$/.test(fingerprint) ? fingerprint : null;
    return { auth: await verifier.verify(token), requestId: currentRequestId() ?? newRequestId(), auditHeaders: { ipPrefix: headerValue(req, CLIENT_IP_PREFIX_HEADER), actor: headerValue(req, AUDIT_ACTOR_HEADER) }, idempotencyScope, idempotencyFingerprint };
  };
  const onError = ({ error, path }: { error: TRPCError; path: string | undefined }) => {
    if (!appErrorOf(error)) options.logger.error({ err: error, path, requestId: currentRequestId() }, 'procedure failed');
  };
  // Batches (the console's, through the gateway's session proxy) keep tRPC's own adapter.
  const batches = createHTTPHandler({ router: options.router, basePath: '/trpc/', createContext: ({ req }) => createContext(req), onError });
  const trpc = createTrpcCallHandler({ router: options.router, basePath: '/trpc/', createContext, onError, fallback: batches });

  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (url === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (url === '/readyz') {
      options.ready().then(
        () => sendJson(res, 200, { status: 'ready' }),
        (err: unknown) => {
          options.logger.warn({ err }, 'not ready');
          sendJson(res, 503, { status: 'unavailable' });
        },
      );
      return;
    }
    if (url.startsWith('/trpc/')) {
      const incomingId = req.headers['x-request-id'];
      const requestId = typeof incomingId === 'string' && isWellFormedRequestId(incomingId) ? incomingId : newRequestId();
      return void withRequestId(requestId, () => trpc(req, res));
    }
    sendJson(res, 404, { error: 'not found' });
  });
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Listens, and on SIGINT/SIGTERM stops accepting, lets requests finish, then runs `close`. */
/** Set by the dev launcher (tools/devstack) on the processes it starts with a lifeline on stdin. */
export const LAUNCHER_LIFELINE_ENV = 'HIRELOOP_LAUNCHER_LIFELINE';

/**
 * Under the dev launcher, stops this process as SIGTERM would when the launcher dies: it holds
 * this process's stdin open and never writes, so the pipe's end means it is gone (a SIGKILL or
 * an out-of-memory kill runs no handler of its own). Left running, a service keeps its port, and
 * the next `npm start` fails on it. Elsewhere (compose, the topology) it does nothing.
 */
export function stopWhenLauncherDies(): void {
  if (process.env[LAUNCHER_LIFELINE_ENV] !== '1') return;
  // Only a pipe is a lifeline: stdin of /dev/null (or a terminal) ends at once, or never.
  const stdin = fstatSync(0);
  if (!stdin.isFIFO() && !stdin.isSocket()) return;
  const stop = () => process.kill(process.pid, 'SIGTERM');
  process.stdin.once('end', stop);
  process.stdin.once('error', stop);
  process.stdin.resume();
}

export async function serveUntilSignalled(server: Server, port: number, host: string, logger: Logger, close: () => Promise<void>): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  server.keepAliveTimeout = 65_000;
  logger.info({ port, host }, 'listening');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  stopWhenLauncherDies();
}
