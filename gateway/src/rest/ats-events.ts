import { AtsEventAccepted, AtsEventBody, envelope } from '@hireloop/contracts';
import { apiProcedure } from './trpc.js';

export const pushAtsEvent = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 202,
    openapi: {
      method: 'POST', path: '/ats/events', tags: ['ATS events'], summary: 'Push an applicant-tracking event',
      successDescription: '`accepted`, or `duplicate` when this (source, eventId) was already received',
      description:
        'Identified by external ids. Accepted once per (source, eventId) while the event is kept (ATS_EVENTS_RETENTION_DAYS, 30 days); a repeat answers `duplicate` and changes nothing. Candidates and positions are matched or created by (source, externalId). An application created in, or moved into, a stage in your organization\'s mapping schedules an AI interview (not again for a candidate who declined one for the position); a rejection or a hire cancels its open AI interview. Events about one candidate or application apply in `occurredAt` order: an older one arriving after a newer one changes nothing (`superseded`); a repeat after the 30 days is applied again only if nothing newer about its subject came since. Emits `ats_event.processed` when done.',
    },
  })
  .input(AtsEventBody)
  .output(envelope(AtsEventAccepted))
  .mutation(async ({ ctx, input }) => ({ data: await ctx.integrations.ats.accept.mutate(input) }));
