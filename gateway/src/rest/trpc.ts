import { createTrpc } from '@hireloop/platform';
import type { CallerClients } from '../services.js';
import type { ApiCaller } from '../request-context.js';

/**
 * Context of a REST procedure, made by the dispatcher (dispatch.ts) once the route, the caller's
 * scope and the input are settled: the caller, typed clients of the services acting for it, and
 * what a route may add to its answer.
 */
export interface RestContext extends CallerClients {
  caller: ApiCaller;
  requestId: string;
  /** The request target as sent (path and query) and its parsed JSON body, for the few routes that read them. */
  request: { url: string; body: unknown };
  publicBaseUrl: string;
  /** Headers a route adds to its success (Link); the status and Location come from its meta. */
  response: { headers: Record<string, string> };
}

const t = createTrpc<RestContext>();
export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every public route is one procedure of this builder, with `scope` and `openapi` in its meta,
 * `.input()` and `.output()` schemas from packages/contracts, and a body that calls a service.
 * The dispatcher routes to it by its meta and checks the scope before it runs.
 */
export const apiProcedure = t.procedure;
