import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { AppErrorData, ErrorDetail, Scope } from '@hireloop/contracts';
import { AppError, toTRPCError } from './errors.js';
import { appErrorFromClientError } from './service-client.js';
import { databaseUnavailable, isTransientDatabaseError } from './database-errors.js';
import type { InternalAuth } from './internal-auth.js';
import { auditContextOf, runWithAuditContext } from './audit.js';
import { procedureScope, withRequestFingerprint } from './service-idempotency.js';

/** Procedure metadata: the REST mapping (gateway only) and the API-key scope a route requires. */
export type ProcedureMeta = OpenApiMeta & {
  scope?: Scope;
  /** REST status of success when not 200 (201, 202, 204). */
  successStatus?: 201 | 202 | 204;
  /**
   * The created resource's path under /api/v1, `{id}` standing for the id in the response's
   * `data`: the gateway sends it as `Location` and the OpenAPI document declares the header.
   */
  location?: `/${string}{id}`;
  /**
   * A body that takes exactly one of these fields (a cross-field rule its input refines): the
   * OpenAPI document publishes it as `oneOf` (CLARIFICATIONS 2026-11-26, "cross-field rules").
   */
  exactlyOneOf?: [string, string, ...string[]];
  /**
   * A body that takes at most one of these fields: published as `not: {required: [...]}`. A field
   * in `unlessEmpty` counts only when it is a non-empty list (the service reads `[]` as not given).
   */
  atMostOneOf?: { fields: [string, string, ...string[]]; unlessEmpty?: string[] };
  /** A body that takes at least one of these fields (a PATCH that must change something): published as `anyOf` of `required`. */
  atLeastOneOf?: [string, string, ...string[]];
};

export function zodIssuesToDetails(error: ZodError): ErrorDetail[] {
  return error.issues.flatMap((i) => {
    const path = i.path.map(String).join('.');
    // One detail per unknown field, named by its own path, so a client sees which one to drop.
    if (i.code === 'unrecognized_keys') return i.keys.map((k) => ({ path: path ? `${path}.${k}` : k, message: 'unknown field or parameter' }));
    return [{ path: path || '(root)', message: i.message }];
  });
}

/** Reads the platform error out of anything a procedure threw. */
export function appErrorOf(error: TRPCError): AppError | null {
  if (error.cause instanceof AppError) return error.cause;
  // A procedure that called another service and let its error through.
  const fromService = appErrorFromClientError(error.cause);
  if (fromService) return fromService;
  // Input that fails its schema. A ZodError under any other code is ours (tRPC's output
  // validation, a parse inside a procedure): a logged 500, never a 422 with internal paths.
  if (error.cause instanceof ZodError && error.code === 'BAD_REQUEST') {
    return new AppError('validation_failed', 'The request did not pass validation.', zodIssuesToDetails(error.cause));
  }
  if (error.code === 'PARSE_ERROR') return new AppError('invalid_json', 'The request body is not valid JSON.');
  if (error.code === 'UNSUPPORTED_MEDIA_TYPE') return new AppError('unsupported_media_type', 'Send the body as application/json.');
  if (error.code === 'PAYLOAD_TOO_LARGE') return new AppError('payload_too_large', 'The request body is larger than 1 MiB.');
  return null;
}

/**
 * Builds tRPC once for a process (STYLE.md practice 1). The error formatter carries the platform
 * error code across the wire in `data`, so a caller on the other side of a tRPC hop can rethrow it.
 */
export function createTrpc<TContext extends object>() {
  const t = initTRPC
    .context<TContext>()
    .meta<ProcedureMeta>()
    .create({
      errorFormatter({ shape, error }) {
        const app = appErrorOf(error);
        const data: typeof shape.data & AppErrorData = { ...shape.data, stack: undefined };
        if (app) {
          data.appCode = app.code;
          data.appDetails = app.details;
          data.appExtra = app.extra;
        }
        return { ...shape, message: app ? app.message : shape.message, data };
      },
    });
  return t;
}

/** Context of a service procedure: the verified internal caller, if any. */
export interface ServiceContext {
  auth: InternalAuth | null;
  requestId: string;
  /** The client's address prefix and the actor the platform acts for (audit.ts), from the call's headers. */
  auditHeaders?: { ipPrefix?: string; actor?: string };
  /**
   * The caller's Idempotency-Key scoped to its API key (IDEMPOTENCY_SCOPE_HEADER), or null. In a
   * procedure it is already named for that procedure (procedureScope): record it as it is.
   */
  idempotencyScope?: string | null;
  /** The SHA-256 of the request body beside the scope (IDEMPOTENCY_FINGERPRINT_HEADER), or null: runOnce records and compares it. */
  idempotencyFingerprint?: string | null;
}

export type ServiceAuthed = ServiceContext & { auth: InternalAuth };
export type OrgAuthed = ServiceContext & { auth: InternalAuth & { org: string }; org: string };

/**
 * The approved procedure builders of a service. Every procedure requires a verified internal
 * token; `systemProcedure` additionally requires the `system` subject, `orgProcedure` an
 * organization, which is then always taken from the token and never from input.
 */
export function createServiceProcedures() {
  const t = createTrpc<ServiceContext>();
  // An AppError thrown in a procedure (or a called service's, let through) keeps its HTTP status on the wire (404, 409, 422…), not 500;
  // a transient database failure (deadlock, serialization, timeout, lost connection) is a 503.
  // Every call runs in its audit context, so the writes it makes record who made them (audit.ts).
  const withAppErrors = t.procedure.use(async ({ ctx, next }) => {
    const result = await runWithAuditContext(auditContextOf(ctx.auth, ctx.requestId, ctx.auditHeaders ?? {}), () => next());
    if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR') {
      if (result.error.cause instanceof AppError) throw toTRPCError(result.error.cause);
      // Another service's refusal that a procedure let through keeps its status too: a 404 of
      // recruiting answered by integrations is a 404 to the console, not a 500. Not a refusal of
      // this service's own token (401, 403): that is ours to fix, a logged 500, and a 401 would
      // end the console user's session.
      const fromService = appErrorFromClientError(result.error.cause);
      if (fromService && fromService.code !== 'unauthenticated' && fromService.code !== 'forbidden') throw toTRPCError(fromService);
      if (isTransientDatabaseError(result.error.cause)) throw toTRPCError(databaseUnavailable());
    }
    return result;
  });
  // The forwarded Idempotency-Key scope is named for the procedure called, so that it is only
  // ever honoured by the procedure it was recorded by (service-idempotency.ts).
  const internalProcedure = withAppErrors.use(({ ctx, path, next }) => {
    const auth = ctx.auth;
    if (!auth) throw toTRPCError(new AppError('unauthenticated', 'This service requires an internal token.'));
    const idempotencyScope = ctx.idempotencyScope ? procedureScope(ctx.idempotencyScope, path) : null;
    return withRequestFingerprint(idempotencyScope ? ctx.idempotencyFingerprint : null, () => next({ ctx: { ...ctx, auth, idempotencyScope } }));
  });
  const systemProcedure = internalProcedure.use(({ ctx, next }) => {
    if (ctx.auth.sub !== 'system') throw toTRPCError(new AppError('forbidden', 'Only the platform itself may call this.'));
    return next();
  });
  const orgProcedure = internalProcedure.use(({ ctx, next }) => {
    const org = ctx.auth.org;
    if (!org) throw toTRPCError(new AppError('forbidden', 'This call needs an organization in its token.'));
    return next({ ctx: { ...ctx, auth: { ...ctx.auth, org }, org } });
  });
  /** The platform acting inside one organization (workflows, relays): both checks at once. */
  const systemOrgProcedure = orgProcedure.use(({ ctx, next }) => {
    if (ctx.auth.sub !== 'system') throw toTRPCError(new AppError('forbidden', 'Only the platform itself may call this.'));
    return next();
  });
  return { router: t.router, middleware: t.middleware, createCallerFactory: t.createCallerFactory, internalProcedure, systemProcedure, orgProcedure, systemOrgProcedure };
}

export { TRPCError };
