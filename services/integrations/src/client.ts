import { createServiceClient, InternalTokenCache, SYSTEM_SUBJECT, type KeyRing } from '@hireloop/platform';
import { SCOPES } from '@hireloop/contracts';
import type { IntegrationsRouter } from './router.js';

/** A client of the integrations service for platform code (other services, worker, tests), as `system`. */
export function createIntegrationsClient(integrationsUrl: string, internalTokenKeys: KeyRing | string) {
  const client = createServiceClient<IntegrationsRouter>(integrationsUrl, new InternalTokenCache(internalTokenKeys));
  return {
    system: client({ auth: { sub: SYSTEM_SUBJECT, org: null, scopes: [...SCOPES] } }),
    forOrganization: (org: string) => client({ auth: { sub: SYSTEM_SUBJECT, org, scopes: [...SCOPES] } }),
  };
}
