import { AtsEventAccepted, AtsEventBody, envelope } from '@hireloop/contracts';
import { apiProcedure } from './trpc.js';

export const pushAtsEvent = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 202,
    openapi: {
      method: 'POST', path: '/ats/events', tags: ['ATS events'], summary: 'Push an applicant-tracking event',
      successDescription: '`accepted`, or `duplicate` when this (source, eventId) was already received',
      description: 'Identified by external ids. Accepted once per (source, eventId); a repeat answers `duplicate` and changes nothing. Candidates and positions are matched or created by (source, externalId); a stage change into a stage in your organization\'s mapping schedules an AI interview. Emits `ats_event.processed` when done.',
    },
  })
  .input(AtsEventBody)
  .output(envelope(AtsEventAccepted))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.ats.accept.mutate(input) }));
