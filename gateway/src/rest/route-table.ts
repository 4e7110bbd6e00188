import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import type { Scope } from '@hireloop/contracts';
import type { ProcedureMeta } from '@hireloop/platform';

/** One public route: a procedure of the REST router and the REST mapping in its meta. */
export interface ApiRoute {
  method: string;
  /** The path under /api/v1 as the document spells it, `{name}` for each path parameter. */
  template: string;
  /** The procedure's name in the router. */
  procedure: string;
  meta: ProcedureMeta & { scope: Scope };
  /** GET and DELETE read their input from the query string, the others from the JSON body. */
  inputFrom: 'query' | 'body';
  /** The names its input schema takes (null when the schema is not a plain object). */
  inputNames: ReadonlySet<string> | null;
  params: string[];
  pattern: RegExp;
}

/** Where a request goes: a route with its path parameters, or why it goes nowhere. */
export type RouteMatch =
  | { kind: 'route'; route: ApiRoute; params: Record<string, string>; path: string }
  /** The path exists, with other methods only: 405, and `allow` lists them (RFC 9110 §15.5.6). */
  | { kind: 'method_not_allowed'; allow: string[]; path: string }
  | { kind: 'none'; path: string };

export interface RouteTable {
  readonly routes: readonly ApiRoute[];
  /**
   * The route for a request: `url` is its target relative to /api/v1 (a query is ignored). The
   * returned `path` is the one spelling of the target that reaches the same route (see below).
   */
  match(method: string, url: string): RouteMatch;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

const PLAIN_PATH = /^\/(?:[A-Za-z0-9\-_~!$&'()*+,;=:@/]|%(?![2][eE]))*$/;

/** Outer slashes dropped, once each (a doubled slash is a different path). */
const trimSlashes = (path: string) => `/${path.replace(/^\/|\/$/g, '')}`;

/**
 * The path as routing reads it: dot segments resolved by the WHATWG URL parser (`/./positions`,
 * `/x/../positions` and `%2e%2e` are `/positions`), outer slashes dropped. Path parameters keep
 * their bytes and case (ids are case-sensitive). A request target in absolute form
 * (`GET http://host/api/v1/me`, RFC 9112 §3.2.2) is read for its path.
 */
export function routingPath(url: string): string {
  const end = url.indexOf('?');
  const path = end < 0 ? url : url.slice(0, end);
  // The common case, which the URL parser would return unchanged: no dot, no %2e, no fragment,
  // nothing it percent-encodes.
  if (PLAIN_PATH.test(path)) return trimSlashes(path);
  try {
    return trimSlashes(new URL(url.startsWith('/') ? `http://gateway.invalid${url}` : url).pathname);
  } catch {
    return url;
  }
}

/**
 * RFC 3986 §6.2.2.2: a percent-encoded unreserved character is that character, so `/m%65` is
 * `/me` and `cand%5F…` is `cand_…`. Other escapes (`%2F`, `%20`) stay as they are. Dot segments
 * are resolved before (routingPath), so a decoded `%2E` never makes one.
 */
export function decodeUnreserved(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(c) ? c : escape;
  });
}

/**
 * The route table of /api/v1, built once at start from the procedures' `meta.openapi`, the same
 * meta that makes the OpenAPI document: a procedure added to the router is routed with no other
 * change. Fixed segments match case-insensitively and each `{param}` is one segment, as the
 * document's generator (trpc-to-openapi) reads them; where two templates take one path, the one
 * with fewer parameters wins. A route without a scope fails the start: it would be open.
 */
export function routeTableOf(router: AnyTRPCRouter): RouteTable {
  const procedures = router._def.procedures as Record<string, AnyTRPCProcedure>;
  const routes: ApiRoute[] = [];
  for (const [name, procedure] of Object.entries(procedures)) {
    const meta = procedure._def.meta as ProcedureMeta | undefined;
    const openapi = meta?.openapi;
    if (!openapi) continue;
    if (!meta.scope) throw new Error(`REST procedure ${name} has no scope`);
    const template = trimSlashes(openapi.path);
    const params = Array.from(template.matchAll(/\{(\w+)\}/g), (m) => m[1]!);
    const pattern = new RegExp(`^${template.replace(/\{(\w+)\}/g, (_, param: string) => `(?<${param}>[^/]+)`)}$`, 'i');
    const method = openapi.method.toUpperCase();
    const inputFrom = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
    const shape = (procedure._def as { inputs?: { shape?: Record<string, unknown> }[] }).inputs?.[0]?.shape;
    // A query route's names must be known: an empty unknown parameter is refused, not dropped (dispatch.ts).
    if (inputFrom === 'query' && !shape) throw new Error(`REST procedure ${name} reads its query but its input is not a plain object`);
    const inputNames = shape ? new Set(Object.keys(shape)) : null;
    routes.push({ method, template, procedure: name, meta: { ...meta, scope: meta.scope }, inputFrom, inputNames, params, pattern });
  }
  routes.sort((a, b) => a.params.length - b.params.length);

  return {
    routes,
    match(method, url) {
      const path = decodeUnreserved(routingPath(url));
      // HEAD is the GET without its body (RFC 9110 §9.3.2).
      const wanted = method === 'HEAD' ? 'GET' : method;
      const allow = new Set<string>();
      for (const route of routes) {
        const found = route.pattern.exec(path);
        if (!found) continue;
        const params = { ...found.groups };
        if (route.method === wanted) return { kind: 'route', route, params, path: route.template.replace(/\{(\w+)\}/g, (_, param: string) => params[param]!) };
        allow.add(route.method);
        if (route.method === 'GET') allow.add('HEAD');
      }
      if (allow.size === 0) return { kind: 'none', path };
      return { kind: 'method_not_allowed', allow: METHOD_ORDER.filter((m) => allow.has(m)), path };
    },
  };
}
