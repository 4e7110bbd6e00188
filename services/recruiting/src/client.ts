import { createServiceClient, InternalTokenCache, SYSTEM_SUBJECT, type KeyRing } from '@hireloop/platform';
import { SCOPES } from '@hireloop/contracts';
import type { RecruitingRouter } from './router.js';

/** A client of the recruiting service for platform code (launcher, worker, tests), as `system`. */
export function createRecruitingClient(recruitingUrl: string, internalTokenKeys: KeyRing | string) {
  const client = createServiceClient<RecruitingRouter>(recruitingUrl, new InternalTokenCache(internalTokenKeys));
  return {
    system: client({ auth: { sub: SYSTEM_SUBJECT, org: null, scopes: [...SCOPES] } }),
    forOrganization: (org: string) => client({ auth: { sub: SYSTEM_SUBJECT, org, scopes: [...SCOPES] } }),
  };
}
