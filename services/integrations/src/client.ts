import { createServiceClient, InternalTokenCache, internalKey, SYSTEM_SUBJECT } from '@hireloop/platform';
import { SCOPES } from '@hireloop/contracts';
import type { IntegrationsRouter } from './router.js';

/** A client of the integrations service for platform code (other services, worker, tests), as `system`. */
export function createIntegrationsClient(integrationsUrl: string, internalAuthSecret: string) {
  const client = createServiceClient<IntegrationsRouter>(integrationsUrl, new InternalTokenCache(internalKey(internalAuthSecret)));
  return {
    system: client({ auth: { sub: SYSTEM_SUBJECT, org: null, scopes: [...SCOPES] } }),
    forOrganization: (org: string) => client({ auth: { sub: SYSTEM_SUBJECT, org, scopes: [...SCOPES] } }),
  };
}
