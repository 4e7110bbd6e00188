import type { Request } from 'express';
import type { Scope } from '@hireloop/contracts';
import type { RouteMatch } from './rest/route-table.js';

/** The caller of an /api/v1 request, set by the authentication middleware. */
export interface ApiCaller {
  organization: { id: string; name: string };
  key: { id: string; name: string; prefix: string; createdAt: string };
  scopes: Scope[];
}

/** What the gateway's middlewares attach to a request, in one typed place. */
export interface GatewayLocals {
  requestId: string;
  caller?: ApiCaller;
  /** Where the request goes under /api/v1, matched once (rest/dispatch.ts routeApiRequests). */
  route?: RouteMatch;
}

export function locals(req: Request): GatewayLocals {
  return (req as Request & { hl: GatewayLocals }).hl;
}

export function setLocals(req: Request, value: GatewayLocals): void {
  (req as Request & { hl: GatewayLocals }).hl = value;
}
