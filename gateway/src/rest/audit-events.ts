import { AuditEvent, listEnvelope, ListAuditEventsQuery } from '@hireloop/contracts';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

export const listAuditEvents = apiProcedure
  .meta({
    scope: 'admin',
    openapi: {
      method: 'GET', path: '/audit-events', tags: ['Audit events'], summary: 'List audit events',
      description: 'Who did what, when: one event per write made through the API, the console or the operator CLIs, recorded in the same transaction as the write and kept one year. Newest first; filters `actorId`, `resourceId`, `action`, `createdAfter`, `createdBefore`; the next page is in `Link: rel="next"`. An event holds ids and the client\'s /24 (IPv4) or /48 (IPv6) prefix, never personal data; `actor.name` is looked up when the list is read.',
    },
  })
  .input(ListAuditEventsQuery)
  .output(listEnvelope(AuditEvent))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.identity.auditEvents.list.query(input)));
