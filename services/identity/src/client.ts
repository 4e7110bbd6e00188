import { createServiceClient, InternalTokenCache, SYSTEM_SUBJECT, type KeyRing, type InternalAuth } from '@hireloop/platform';
import { SCOPES } from '@hireloop/contracts';
import type { IdentityRouter } from './router.js';

/**
 * A client of the identity service for platform tooling (launcher, CLI, tests): calls as the
 * `system` subject, optionally confined to one organization. `actor` names the tool in the audit
 * trail of its writes (`cli:keys`); without it they are the platform's (`system`).
 */
export function createIdentityClient(identityUrl: string, internalTokenKeys: KeyRing | string, actor?: string) {
  const client = createServiceClient<IdentityRouter>(identityUrl, new InternalTokenCache(internalTokenKeys));
  const as = (org: string | null): InternalAuth => ({ sub: SYSTEM_SUBJECT, org, scopes: [...SCOPES] });
  return {
    system: client({ auth: as(null), actor }),
    forOrganization: (org: string) => client({ auth: as(org), actor }),
  };
}
export type IdentityClient = ReturnType<typeof createIdentityClient>;
