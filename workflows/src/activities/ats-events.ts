import type { AtsEventBody } from '@hireloop/contracts';
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
    async applyAtsEvent(args: { organizationId: string; event: AtsEventBody }): Promise<Record<string, unknown>> {
      return serviceCall(() => recruiting.forOrganization(args.organizationId).ats.applyEvent.mutate(args.event));
    },
    async finishAtsEvent(args: { organizationId: string; atsEventId: string; result?: Record<string, unknown>; error?: { code: string; message: string } }): Promise<void> {
      await serviceCall(() => integrations.forOrganization(args.organizationId).ats.finish.mutate({ id: args.atsEventId, result: args.result, error: args.error }));
    },
  };
}
export type AtsActivities = ReturnType<typeof createAtsActivities>;
