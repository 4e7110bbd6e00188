import { createServiceClient, InternalTokenCache, SYSTEM_SUBJECT, type CallContext, type KeyRing, type ServiceClientOptions } from '@hireloop/platform';
import type { IdentityRouter } from '@hireloop/identity';
import type { RecruitingRouter } from '@hireloop/recruiting';
import type { IntegrationsRouter } from '@hireloop/integrations';
import { SCOPES } from '@hireloop/contracts';

export interface ServiceUrls {
  identity: string;
  recruiting: string;
  integrations: string;
}

/**
 * Typed clients of every service the gateway fronts: one tRPC client per service and process.
 * `forCaller` and the `…AsSystem` helpers make no client: they give views of it whose calls carry
 * that caller (service-client.ts), and cost a few small objects per request.
 */
export function createServiceClients(urls: ServiceUrls, internalTokenKeys: KeyRing, options: ServiceClientOptions = {}) {
  const tokens = new InternalTokenCache(internalTokenKeys);
  const identity = createServiceClient<IdentityRouter>(urls.identity, tokens, options);
  const recruiting = createServiceClient<RecruitingRouter>(urls.recruiting, tokens, options);
  const integrations = createServiceClient<IntegrationsRouter>(urls.integrations, tokens, options);
  const system = { sub: SYSTEM_SUBJECT, org: null, scopes: [...SCOPES] };
  return {
    /** Clients that act for one caller (an API key's organization and scopes). */
    forCaller: (call: CallContext) => ({ identity: identity(call), recruiting: recruiting(call), integrations: integrations(call) }),
    /**
     * The gateway itself, e.g. to verify an API key or a session. `ipPrefix` is the client's (its
     * /24 or /48) for the audit rows of the writes the call makes: a console login or logout.
     */
    identityAsSystem: (requestId: string, ipPrefix?: string | null) => identity({ auth: system, requestId, ipPrefix }),
    /** The gateway itself on the candidate's invite page (the token is the credential); `ipPrefix` as above. */
    recruitingAsSystem: (requestId: string, ipPrefix?: string | null) => recruiting({ auth: system, requestId, ipPrefix }),
    /** The gateway itself within one organization (an erasure's stored replies: the person's ids). */
    recruitingAsSystemFor: (organizationId: string, requestId: string) => recruiting({ auth: { ...system, org: organizationId }, requestId }),
  };
}
export type ServiceClients = ReturnType<typeof createServiceClients>;
export type CallerClients = ReturnType<ServiceClients['forCaller']>;
