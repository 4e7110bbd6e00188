import { envelope, EventEnvelope, EventId, listEnvelope, ListEventsQuery } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Events'];

export const listEvents = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/events', tags, summary: 'List events',
      description: 'The organization\'s events of the last 30 days, newest first: the same envelope webhooks deliver, so a client that missed deliveries reconciles by polling. Filters `type`, `createdAfter`, `createdBefore`; the next page is in `Link: rel="next"`. `createdAt` is when the change was made; an event enters this list when integrations takes it from its service\'s outbox after the commit (about a second later, or after an outage), so poll with `createdAfter` a few minutes before the newest `createdAt` you hold and skip ids you have.',
    },
  })
  .input(ListEventsQuery)
  .output(listEnvelope(EventEnvelope))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.integrations.events.list.query(input)));

export const getEvent = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/events/{id}', tags, summary: 'Event detail', description: 'An event of the last 30 days, as delivered.', errorResponses: [404] } })
  .input(z.object({ id: EventId }).strict())
  .output(envelope(EventEnvelope))
  .query(async ({ ctx, input }) => ({ data: await ctx.integrations.events.get.query(input) }));
