import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AppError } from '@hireloop/platform';
import { sendError } from './errors.js';
import { jsonMediaTypeProblem } from './media-type.js';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

const ENCODINGS = new Set(['identity', 'gzip']);

const tooLarge = () => new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
const invalidJson = (why = 'is not valid JSON') => new AppError('invalid_json', `The request body ${why}.`);
const unsupported = (message: string) => new AppError('unsupported_media_type', message);
const notAnObject = () => new AppError('validation_failed', 'The request body must be a JSON object.', [{ path: '(root)', message: 'expected a JSON object' }]);

/**
 * Why a `Content-Type`/`Content-Encoding` pair is refused (415), or null when the body is JSON we
 * read: the media type as RFC 9110 reads it (media-type.ts), UTF-8 as the only charset, identity
 * or gzip.
 */
function refusedHeaders(type: string | undefined, encoding: string | undefined): string | null {
  const media = jsonMediaTypeProblem(type);
  if (media) return media;
  if (encoding !== undefined && !ENCODINGS.has(encoding.trim().toLowerCase())) return 'Send the body uncompressed or with Content-Encoding: gzip.';
  return null;
}

/** Whether a request carries a body: a non-zero Content-Length, or Transfer-Encoding. */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The nesting depth of a JSON text, read from its bytes without parsing (so 10 000 levels cost a
 * scan, not a parse and a walk): brackets outside strings.
 */
export function jsonDepthExceeds(buf: Buffer, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

class BodyRefused extends Error {
  constructor(readonly app: AppError) {
    super(app.message);
  }
}

/**
 * Methods whose routes read the query: a body is read only when one is sent, and then as JSON
 * like any other (the dispatcher checks it: a DELETE's fields as the query's, a field in a GET's
 * is 422; none is accepted and dropped, issue 18). A GET's body used to be left unread, and what
 * it asked for silently ignored.
 */
const READS_QUERY = new Set(['GET', 'HEAD', 'DELETE']);
/** Methods whose routes take a JSON body (none given reads as `{}`). */
const READS_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies only (PRODUCT.md §3, §4), the one place the rules live for /api/v1 and /auth:
 * ≤ 1 MiB also after gunzip (413), well-formed UTF-8 and JSON nested ≤ 64 levels (400
 * invalid_json), 415 for another media type, charset or Content-Encoding, and a JSON object
 * (422 validation_failed for `null`, an array, a string or a number). A POST, PUT or PATCH
 * without a body reads as `{}`; a GET, HEAD or DELETE without one has none (a GET's or HEAD's is
 * read at all with `getBodies`). `readIf` leaves the body unread where it says no (a request whose
 * 404, 405 or 403 comes first).
 */
export function jsonBody(options: { readIf?: (req: Request) => boolean; getBodies?: boolean } = {}) {
  const parse = express.json({
    limit: MAX_BODY_BYTES,
    strict: false,
    type: () => true,
    verify: (_req, _res, buf) => {
      if (!isUtf8(buf)) throw new BodyRefused(invalidJson('is not valid UTF-8'));
      if (jsonDepthExceeds(buf, MAX_JSON_DEPTH)) throw new BodyRefused(invalidJson(`is nested deeper than ${MAX_JSON_DEPTH} levels`));
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // GET and HEAD bodies are read only where a dispatcher checks them (/api/v1), not on /auth.
    if (!READS_BODY.has(req.method) && !(READS_QUERY.has(req.method) && (req.method === 'DELETE' || options.getBodies))) return next();
    if (options.readIf && !options.readIf(req)) return next();
    if (!hasBody(req)) {
      if (READS_QUERY.has(req.method)) return next();
      req.body = {};
      return next();
    }
    const refused = refusedHeaders(req.headers['content-type'], req.headers['content-encoding']);
    if (refused) return sendError(req, res, unsupported(refused));
    // Read as JSON in UTF-8 from here on: the body parser knows only `utf-…` charset names, and
    // trpc-to-openapi only the lower-case `application/json` (`charset=utf8` was a 415).
    req.headers['content-type'] = 'application/json';
    parse(req, res, (err?: unknown) => {
      if (!err) {
        // Every body of the API is an object: `null`, a number or a string is not read as `{}`
        // (a PATCH with the body `null` once answered 200; found by schemathesis).
        if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) return sendError(req, res, notAnObject());
        return next();
      }
      const e = err as { type?: string; status?: number };
      if (err instanceof BodyRefused) return sendError(req, res, err.app);
      if (e.type === 'entity.too.large' || e.status === 413) return sendError(req, res, tooLarge());
      if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return sendError(req, res, unsupported('Send the body as UTF-8 JSON, uncompressed or gzip.'));
      // A JSON syntax error, a gzip stream that does not inflate, a body cut short.
      if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) return sendError(req, res, invalidJson());
      return next(err);
    });
  };
}
