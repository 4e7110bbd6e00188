import type { Request } from 'express';
import type { Scope } from '@hireloop/contracts';
import type { TRPCError } from '@trpc/server';

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
  /**
   * A POST with Idempotency-Key: its path as the router reads it (rest/canonical-path.ts), relative
   * to /api/v1; the gateway's record and the scope forwarded to the service are keyed on it.
   */
  idempotencyPath?: string;
  /** The error a REST procedure failed with, for the envelope writer. */
  procedureError?: TRPCError;
}

export function locals(req: Request): GatewayLocals {
  return (req as Request & { hl: GatewayLocals }).hl;
}

export function setLocals(req: Request, value: GatewayLocals): void {
  (req as Request & { hl: GatewayLocals }).hl = value;
}
