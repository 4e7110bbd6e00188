import { z } from 'zod';
import { AppError, purgeAuditEvents, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ApiKey, ApiKeyId, AuditEvent, CreateApiKeyInput, EmailAddress, ListAuditEventsQuery, CreatedApiKey, Cursor, Organization, OrganizationId, OrganizationNameInput, PageLimit, pageOf, SessionToken, text, User, UserId, visibleName } from '@hireloop/contracts';
import { SCHEMA, type IdentityDB } from './db.js';
import { router, systemProcedure, orgProcedure } from './trpc.js';
import { authenticateApiKey, type AuthenticationResult } from './api-keys/authenticate.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys/api-keys.queries.js';
import { createOrganization, DEMO_SLUG, ensureDemoOrganization, findOrganizationBySlug, getOrganization } from './organizations/organizations.queries.js';
import { login, logout, purgeDeadSessions, verifySession, type LoginDeps } from './sessions/sessions.queries.js';
import { createUser } from './users/users.queries.js';
import { listAuditEvents, type AuditSource } from './audit/audit-events.js';

export interface IdentityDeps {
  db: Kysely<IdentityDB>;
  cursors: CursorCodec;
  login: LoginDeps;
  /** The other services' slices of the audit trail (recruiting, integrations). */
  auditSources: AuditSource[];
  /** Audit rows are kept this long (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
}

const LoginOutput = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('session'), token: z.string(), expiresAt: z.string(), user: User }),
  z.object({ outcome: z.literal('throttled'), retryAfterSeconds: z.number().int().min(1) }),
]);

const ListInput = z.object({ limit: PageLimit, cursor: Cursor.optional() });
const userId = (sub: string) => (sub.startsWith('usr_') ? sub : null);

export function createIdentityRouter(deps: IdentityDeps) {
  const { db } = deps;
  return router({
    /** Called by the gateway for every /api/v1 request: verify the key and draw from its rate limit. */
    apiKeys: router({
      authenticate: systemProcedure
        .input(z.object({ key: text().max(200) }))
        .output(z.custom<AuthenticationResult>())
        .mutation(({ input }) => authenticateApiKey(db, input.key)),
      create: orgProcedure
        .input(CreateApiKeyInput)
        .output(CreatedApiKey)
        .mutation(({ ctx, input }) => createApiKey(db, ctx.org, input, userId(ctx.auth.sub))),
      list: orgProcedure
        .input(ListInput.extend({ activeOnly: z.boolean().optional() }))
        .output(pageOf(ApiKey))
        .query(({ ctx, input }) => listApiKeys(db, deps.cursors, ctx.org, input.limit, input.cursor, input.activeOnly)),
      revoke: orgProcedure
        .input(z.object({ id: ApiKeyId }))
        .output(ApiKey)
        .mutation(({ ctx, input }) => revokeApiKey(db, input.id, ctx.org)),
      /** Operator path (CLI): revoke by id without knowing the organization. */
      revokeAnywhere: systemProcedure
        .input(z.object({ id: ApiKeyId }))
        .output(ApiKey)
        .mutation(({ input }) => revokeApiKey(db, input.id, null)),
    }),
    organizations: router({
      current: orgProcedure.output(Organization).query(({ ctx }) => getOrganization(db, ctx.org)),
      get: systemProcedure.input(z.object({ id: OrganizationId })).output(Organization).query(({ input }) => getOrganization(db, input.id)),
      create: systemProcedure
        .input(z.object({ name: OrganizationNameInput }))
        .output(Organization)
        .mutation(({ input }) => createOrganization(db, input.name)),
      demo: systemProcedure.output(Organization).query(async () => {
        const demo = await findOrganizationBySlug(db, DEMO_SLUG);
        if (!demo) throw new AppError('not_found', 'The demo organization has not been created yet; run `npm start` once.');
        return demo;
      }),
      ensureDemo: systemProcedure
        .input(z.object({ email: z.email(), name: z.string().min(1), password: z.string().min(8) }))
        .output(z.object({ organization: Organization, created: z.boolean() }))
        .mutation(({ input }) => ensureDemoOrganization(db, input)),
    }),
    users: router({
      /** Operator path (`npm run users -- create`): a console user in an organization. */
      create: systemProcedure
        .input(z.object({ organizationId: OrganizationId, email: EmailAddress, name: visibleName(200), password: text().min(8).max(1000) }))
        .output(z.object({ id: UserId, email: z.string(), name: z.string(), organizationId: OrganizationId }))
        .mutation(async ({ input }) => {
          await getOrganization(db, input.organizationId);
          return createUser(db, input.organizationId, input);
        }),
    }),
    /** GET /audit-events and the console's audit view: every service's rows, merged, with actor names (admin). */
    auditEvents: router({
      list: orgProcedure
        .input(ListAuditEventsQuery)
        .output(pageOf(AuditEvent))
        .query(({ ctx, input }) => listAuditEvents(db, deps.cursors, deps.auditSources, ctx.org, ctx.auth.scopes, input)),
    }),
    sessions: router({
      login: systemProcedure
        .input(z.object({ email: text().max(254), password: text().max(1000), ip: z.string().max(100).nullable().default(null) }))
        .output(LoginOutput)
        .mutation(({ input }) => login(db, deps.login, input)),
      verify: systemProcedure
        .input(z.object({ token: SessionToken }))
        .output(User.nullable())
        .query(({ input }) => verifySession(db, input.token)),
      /** The retention purge of expired and logged-out sessions and old audit rows, run by the `purge-identity` Temporal schedule. */
      purge: systemProcedure
        .output(z.object({ sessions: z.number().int(), auditEvents: z.number().int() }))
        .mutation(async () => ({ ...(await purgeDeadSessions(db)), auditEvents: await purgeAuditEvents(db, SCHEMA, deps.auditRetentionDays) })),
      logout: systemProcedure
        .input(z.object({ token: SessionToken }))
        .output(z.object({ ok: z.literal(true) }))
        .mutation(async ({ input }) => {
          await logout(db, input.token);
          return { ok: true as const };
        }),
    }),
  });
}

export type IdentityRouter = ReturnType<typeof createIdentityRouter>;
