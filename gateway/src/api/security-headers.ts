import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

const NEVER_FRAMED = { 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'object-src': ["'none'"] };

/**
 * The Content-Security-Policy of each kind of page (PRODUCT.md §11): every one forbids framing.
 * `default` covers everything else, JSON and the HTML error pages alike: nothing may load.
 */
export const CSP = {
  default: { 'default-src': ["'none'"], 'style-src': ["'unsafe-inline'"], 'form-action': ["'none'"], ...NEVER_FRAMED },
  /** The console: static modules and a stylesheet from /console, data from /auth and /trpc. */
  console: {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'form-action': ["'self'"],
    ...NEVER_FRAMED,
  },
  /** Redoc, self-hosted: it injects styles, compiles its search worker from a blob, and needs eval. */
  reference: {
    'default-src': ["'self'"],
    'script-src': ["'self'", "'unsafe-eval'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'worker-src': ["'self'", 'blob:'],
    'form-action': ["'none'"],
    ...NEVER_FRAMED,
  },
  /**
   * The invite page: plain HTML forms posting to itself; its stylesheet and its one script are
   * our own files (the script is progressive enhancement, and fetches the next turn from the same
   * origin). Nothing inline.
   */
  invite: { 'default-src': ["'none'"], 'style-src': ["'self'"], 'script-src': ["'self'"], 'connect-src': ["'self'"], 'form-action': ["'self'"], ...NEVER_FRAMED },
} satisfies Record<string, Directives>;

/** One year, subdomains included: helmet's option and the header written by hand (parser-errors.ts). */
const HSTS = { maxAge: 31_536_000, includeSubDomains: true };
/** Whether the public origin is https (the URL parser reads the scheme in any case: `HTTPS://`). */
export const servedOverHttps = (publicBaseUrl: string) => new URL(publicBaseUrl).protocol === 'https:';

/** The HSTS header as a line of a response written to the socket, or null when the origin is not https. */
export function hstsHeaderLine(publicBaseUrl: string): string | null {
  return servedOverHttps(publicBaseUrl) ? `Strict-Transport-Security: max-age=${HSTS.maxAge}${HSTS.includeSubDomains ? '; includeSubDomains' : ''}` : null;
}

/**
 * Every response's security headers, once for the whole gateway, through helmet (a well-kept
 * library that tracks browsers' headers): nosniff, the default CSP, no framing, no referrer, and
 * HSTS only when the public origin is https (over http it would be ignored, and on localhost it
 * would pin every port of the host to https).
 */
export function securityHeaders(publicBaseUrl: string) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CSP.default },
    strictTransportSecurity: servedOverHttps(publicBaseUrl) ? HSTS : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/** Replaces the default CSP for one kind of HTML page. */
export function pagePolicy(kind: Exclude<keyof typeof CSP, 'default'>) {
  return helmet.contentSecurityPolicy({ useDefaults: false, directives: CSP[kind] });
}

/** Responses that carry credentials or per-user data are never stored by a browser or proxy. */
export function noStore() {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
}
