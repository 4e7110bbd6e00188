import { createServiceClient, InternalTokenCache, internalKey, SYSTEM_SUBJECT, type CallContext } from '@hireloop/platform';
import type { IdentityRouter } from '@hireloop/identity';
import { SCOPES } from '@hireloop/contracts';

/** Typed clients of every service the gateway fronts; one per process. */
export function createServiceClients(urls: { identity: string }, internalAuthSecret: string) {
  const tokens = new InternalTokenCache(internalKey(internalAuthSecret));
  const identity = createServiceClient<IdentityRouter>(urls.identity, tokens);
  return {
    identity,
    /** The gateway itself, e.g. to verify an API key or a session. */
    identityAsSystem: (requestId: string) => identity({ auth: { sub: SYSTEM_SUBJECT, org: null, scopes: [...SCOPES] }, requestId }),
  };
}
export type ServiceClients = ReturnType<typeof createServiceClients>;
export type { CallContext };
