import type { createIntegrationsClient } from '@hireloop/integrations/client';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { serviceCall } from './service-call.js';

export interface AtsDeps {
  integrations: ReturnType<typeof createIntegrationsClient>;
  recruiting: ReturnType<typeof createRecruitingClient>;
}

/** Activities of the inbound ATS event workflow. */
export function createAtsActivities({ integrations, recruiting }: AtsDeps) {
  return {
    /** Matches or creates candidate and position, applies stage mappings. A refused event is permanent. */
    async applyAtsEvent(args: { organizationId: string; atsEventId: string }): Promise<Record<string, unknown>> {
      // The payload (e-mail, name) is read here, never carried in the workflow's input or history.
      const event = await serviceCall(() => integrations.forOrganization(args.organizationId).ats.payload.query({ id: args.atsEventId }));
      return serviceCall(() => recruiting.forOrganization(args.organizationId).ats.applyEvent.mutate(event));
    },
    async finishAtsEvent(args: { organizationId: string; atsEventId: string; result?: Record<string, unknown>; error?: { code: string; message: string } }): Promise<void> {
      await serviceCall(() => integrations.forOrganization(args.organizationId).ats.finish.mutate({ id: args.atsEventId, result: args.result, error: args.error }));
    },
  };
}
export type AtsActivities = ReturnType<typeof createAtsActivities>;
