import type { createIntegrationsClient } from '@hireloop/integrations/client';
import type { createRecruitingClient } from '@hireloop/recruiting/client';
import { serviceCall } from './service-call.js';

export interface ErasureDeps {
  recruiting: ReturnType<typeof createRecruitingClient>;
  integrations: ReturnType<typeof createIntegrationsClient>;
}

interface Person {
  organizationId: string;
  candidateId: string;
}

/**
 * Activities of the erasure workflow: each owning service scrubs its own schema. Inputs and
 * results are ids and counts only: they stay in the workflow's history after the person is gone.
 */
export function createErasureActivities({ recruiting, integrations }: ErasureDeps) {
  return {
    async beginErasure({ organizationId, candidateId }: Person): Promise<{ taskId: string }> {
      return serviceCall(() => integrations.forOrganization(organizationId).erasure.begin.mutate({ candidateId }));
    },
    async scrubRecruiting({ organizationId, candidateId }: Person): Promise<{ interviewIds: string[]; enrollmentIds: string[]; outbox: number }> {
      return serviceCall(() => recruiting.forOrganization(organizationId).candidates.scrubErased.mutate({ id: candidateId }));
    },
    async scrubIntegrations({ organizationId, candidateId, relatedIds }: Person & { relatedIds: string[] }) {
      return serviceCall(() => integrations.forOrganization(organizationId).erasure.scrub.mutate({ candidateId, relatedIds }));
    },
    async finishErasure({ organizationId, candidateId }: Person): Promise<{ taskId: string }> {
      return serviceCall(() => integrations.forOrganization(organizationId).erasure.finish.mutate({ candidateId }));
    },
  };
}
export type ErasureActivities = ReturnType<typeof createErasureActivities>;
