import type { ProcedureMeta } from '@hireloop/platform';
import { restRouter } from './router.js';

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  scope: ProcedureMeta['scope'];
}

/** trpc-to-openapi's own matching: outer slashes dropped, case-insensitive, each `{param}` one segment. */
const trimSlashes = (path: string) => `/${path.replace(/^\/|\/$/g, '')}`;
const ROUTES: Route[] = Object.values(restRouter._def.procedures as Record<string, { _def: { meta?: ProcedureMeta } }>).flatMap(({ _def }) => {
  const openapi = _def.meta?.openapi;
  if (!openapi) return [];
  const template = trimSlashes(openapi.path);
  const pattern = new RegExp(`^${template.replace(/\{(\w+)\}/g, (_, name: string) => `(?<${name}>[^/]+)`)}$`, 'i');
  return [{ method: openapi.method, template, pattern, scope: _def.meta?.scope }];
});

/** Dot segments resolved as the router resolves them (WHATWG URL), outer slashes dropped. */
const resolvePath = (path: string) => trimSlashes(new URL(path, 'http://gateway.invalid').pathname);

/** The route the router sends this request to (path relative to /api/v1), with its path parameters and scope; null when no route takes it. */
export function matchApiRoute(method: string, path: string): { template: string; params: Record<string, string>; scope: ProcedureMeta['scope'] } | null {
  const resolved = resolvePath(path);
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(resolved);
    if (match) return { template: route.template, params: { ...match.groups }, scope: route.scope };
  }
  return null;
}

/**
 * The one spelling of an /api/v1 path (relative to /api/v1) that the router would send to the
 * same route: `/positions/`, `/POSITIONS` and `/./positions` all reach POST /positions, so they
 * are one request for Idempotency-Key (PRODUCT.md §6 stores per route). Dot segments are resolved
 * as the router resolves them (WHATWG URL), the route's own spelling of its fixed segments is
 * kept, and path parameters keep their case (ids are case-sensitive). A path no route takes is
 * returned as the URL parser resolves it.
 */
export function canonicalApiPath(method: string, path: string): string {
  const route = matchApiRoute(method, path);
  return route ? route.template.replace(/\{(\w+)\}/g, (_, name: string) => route.params[name]!) : resolvePath(path);
}
