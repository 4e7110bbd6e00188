import { ApplicationFailure } from '@temporalio/activity';
import { appErrorFromClientError } from '@hireloop/platform';
import type { AtsEventBody } from '@hireloop/contracts';
import type { createIntegrationsClient } from '@hireloop/integrations/client';
import type { createRecruitingClient } from '@hireloop/recruiting/client';

export interface AtsDeps {
  integrations: ReturnType<typeof createIntegrationsClient>;
  recruiting: ReturnType<typeof createRecruitingClient>;
}

/** Activities of the inbound ATS event workflow. */
export function createAtsActivities({ integrations, recruiting }: AtsDeps) {
  return {
    /** Matches or creates candidate and position, applies stage mappings. A refused event is permanent. */
    async applyAtsEvent(args: { organizationId: string; event: AtsEventBody }): Promise<Record<string, unknown>> {
      try {
        return await recruiting.forOrganization(args.organizationId).ats.applyEvent.mutate(args.event);
      } catch (err) {
        const app = appErrorFromClientError(err);
        if (app && app.code !== 'service_unavailable') throw ApplicationFailure.nonRetryable(app.message, app.code);
        throw err;
      }
    },
    async finishAtsEvent(args: { organizationId: string; atsEventId: string; result?: Record<string, unknown>; error?: { code: string; message: string } }): Promise<void> {
      await integrations.forOrganization(args.organizationId).ats.finish.mutate({ id: args.atsEventId, result: args.result, error: args.error });
    },
  };
}
export type AtsActivities = ReturnType<typeof createAtsActivities>;
