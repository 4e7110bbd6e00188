import type { Request, Response } from 'express';
import type { InternalTokenCache} from '@hireloop/platform';
import { AppError, CLIENT_IP_PREFIX_HEADER, clientIpPrefix, type Logger } from '@hireloop/platform';
import { appErrorDataOf, SCOPES } from '@hireloop/contracts';
import { locals } from '../request-context.js';
import { internalError, sendError, trpcErrorBody } from '../api/errors.js';
import { sessionUser } from './session.js';
import { MAX_BODY_BYTES } from '../api/body.js';
import { jsonMediaTypeProblem } from '../api/media-type.js';

/** Refuses bytes that are not UTF-8 rather than passing on replacement characters (PRODUCT.md §3: 400 invalid_json). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

async function readRaw(req: Request): Promise<string | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
    chunks.push(chunk);
  }
  try {
    return utf8.decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('invalid_json', 'The request body is not UTF-8.');
  }
}

type TrpcErrorShape = { error?: { message?: unknown; data?: Record<string, unknown> } };

/**
 * A service's error answer as the browser may see it: a message the platform wrote (it carries
 * `data.appCode`) passes; any other — a driver's, a library's, Postgres text — is replaced, and
 * stacks are dropped. Batches are arrays of the same shape.
 */
export function redactTrpcErrors(body: Buffer): Buffer {
  let parsed: TrpcErrorShape | TrpcErrorShape[];
  try {
    parsed = JSON.parse(body.toString('utf8')) as TrpcErrorShape | TrpcErrorShape[];
  } catch {
    return Buffer.from(JSON.stringify(trpcErrorBody(internalError())));
  }
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const error = item?.error;
    if (!error || typeof error !== 'object') continue;
    if (error.data && typeof error.data === 'object') delete error.data['stack'];
    const { appCode, httpStatus: status = 0 } = appErrorDataOf(error.data);
    if (appCode) continue;
    error.message = status >= 400 && status < 500 ? `The call was refused (${String(error.data?.['code'] ?? status)}).` : internalError().message;
  }
  return Buffer.from(JSON.stringify(parsed));
}

/**
 * What /trpc/<service> forwards (issue 18 item 1): one path segment of tRPC procedure names
 * (`candidates.list`, a batch `a.b,c.d`), each name a word, and the query as sent. A dot segment
 * (`..`, `%2e%2e`), `//`, a backslash or any escape is no procedure: the URL the service gets
 * can never resolve outside its /trpc/ (`%2e%2e/%2e%2e/healthz` reached the service's /healthz).
 */
const PROCEDURE_PATH = /^\/[A-Za-z0-9_]+(?:[.,][A-Za-z0-9_]+)*$/;
/**
 * The longest path and query forwarded: the service's HTTP server takes 16 KiB of request line
 * and headers, and the internal token and request id travel beside them (issue 18 item 4).
 */
export const MAX_FORWARDED_URL = 8 * 1024;

/** The path and query to forward for `/trpc/<service>/<rest>`, or null when `rest` names no procedure. */
export function forwardedTrpcPath(originalUrl: string, service: string): string | null {
  const q = originalUrl.indexOf('?');
  const path = (q < 0 ? originalUrl : originalUrl.slice(0, q)).slice(`/trpc/${service}`.length);
  return PROCEDURE_PATH.test(path) ? `${path}${q < 0 ? '' : originalUrl.slice(q)}` : null;
}

/**
 * /trpc/<service>/… for internal frontends: forwards the call to that service's own tRPC router
 * with an internal token for the session's user and organization. The gateway adds no rules.
 * Services are looked up in a Map built once from the configuration, so a name such as
 * `constructor` or `__proto__` is simply no service (404), never a property of an object.
 */
export function trpcProxy(serviceUrls: Record<string, string>, tokens: InternalTokenCache, logger: Logger) {
  const services = new Map(Object.entries(serviceUrls));
  return async (req: Request, res: Response) => {
    const service = req.params['service'] as string;
    const base = services.get(service);
    // The raw URL must spell the service as configured: `/trpc/recr%75iting/…` is no service either.
    const path = base && req.originalUrl.startsWith(`/trpc/${service}/`) ? forwardedTrpcPath(req.originalUrl, service) : null;
    if (!base || path === null) return sendError(req, res, new AppError('route_not_found', `No procedure at ${req.path.slice(0, 200)}.`));
    if (path.length > MAX_FORWARDED_URL) {
      return sendError(req, res, new AppError('headers_too_large', `The URL is longer than /trpc forwards (${MAX_FORWARDED_URL / 1024} KiB); send large input in a POST body.`));
    }
    const user = sessionUser(req);
    try {
      const token = await tokens.tokenFor({ sub: user.id, org: user.organization.id, scopes: [...SCOPES], name: user.name });
      // req.ip honours TRUST_PROXY; only its /24 or /48 goes on, for the audit trail.
      const ipPrefix = clientIpPrefix(req.ip);
      const contentType = forwardedContentType(req.headers['content-type']);
      const upstream = await fetch(`${base}/trpc${path}`, {
        // HEAD is the GET without its body (tRPC itself answers every HEAD 204); Express drops the body.
        method: req.method === 'HEAD' ? 'GET' : req.method,
        headers: {
          authorization: `Bearer ${token}`,
          'x-request-id': locals(req).requestId,
          ...(ipPrefix ? { [CLIENT_IP_PREFIX_HEADER]: ipPrefix } : {}),
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        body: await readRaw(req),
      });
      res.status(upstream.status);
      const type = upstream.headers.get('content-type');
      if (type) res.setHeader('Content-Type', type);
      const body = Buffer.from(await upstream.arrayBuffer());
      if (upstream.status >= 400) {
        if (upstream.status >= 500) logger.warn({ service, status: upstream.status, requestId: locals(req).requestId }, 'service call failed');
        res.setHeader('Content-Type', 'application/json');
        return void res.send(redactTrpcErrors(body));
      }
      res.send(body);
    } catch (err) {
      if (err instanceof AppError) return sendError(req, res, err);
      logger.warn({ err, service, requestId: locals(req).requestId }, 'service unreachable');
      sendError(req, res, new AppError('service_unavailable', `The ${service} service is unavailable; try again shortly.`));
    }
  };
}

/**
 * The Content-Type a service's tRPC gets: JSON in any spelling RFC 9110 allows (`Application/JSON;
 * Charset="UTF8"`) as the `application/json` tRPC recognises; anything else as sent (and it
 * refuses it). A header that is too long to be a media type is dropped.
 */
function forwardedContentType(header: string | undefined): string | undefined {
  if (header === undefined || header.length > 1000) return undefined;
  return jsonMediaTypeProblem(header) === null ? 'application/json' : header;
}
