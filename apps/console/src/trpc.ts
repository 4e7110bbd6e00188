// The console's only data path: one typed tRPC client per service, through the gateway's
// /trpc/<service> proxy with the session cookie (same origin). Calls made in the same tick are
// batched into one HTTP request per service. Views use the option proxies with TanStack Query:
//   useQuery(identity.apiKeys.list.queryOptions({ limit: 25 }))
//   useMutation(identity.apiKeys.revoke.mutationOptions())
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { appErrorDataOf, type AppErrorData } from '@hireloop/contracts';
import type { IdentityRouter } from '@hireloop/identity';
import type { IntegrationsRouter } from '@hireloop/integrations';
import type { RecruitingRouter } from '@hireloop/recruiting';

/**
 * Called when a call answers 401: the session ended (expired, logged out elsewhere). `during` says
 * whether a page was reading (`query`) or the recruiter was saving something (`mutation`), whose
 * typed values are still on the page.
 */
export type SessionEnded = (during: 'query' | 'mutation') => void;
let onSessionEnded: SessionEnded = () => {};
export function setSessionEndedHandler(handler: SessionEnded) {
  onSessionEnded = handler;
}

/** What the platform put in a failed call's `error.data` (contracts' one decoder of the wire shape). */
const dataOf = (error: unknown): AppErrorData => (error instanceof TRPCClientError ? appErrorDataOf(error.data) : {});

/** The HTTP status of a failed call, if the gateway or a service answered. */
export const errorStatus = (error: unknown): number | undefined => dataOf(error).httpStatus;

/** Our error code (`data.appCode`, e.g. `not_found`), when the platform wrote the error. */
export const errorCode = (error: unknown): string | undefined => dataOf(error).appCode;

/** The recovery hints of an error (`data.appExtra`, e.g. the existing `candidateId` on candidate_exists). */
export const errorExtra = (error: unknown): Record<string, unknown> => dataOf(error).appExtra ?? {};

/** Field errors a service reported (`data.appDetails`: path + message). */
export const errorDetails = (error: unknown): Array<{ path: string; message: string }> => dataOf(error).appDetails ?? [];

/** A message for people: ours when the platform wrote one, a generic one otherwise. */
export function errorMessage(error: unknown): string {
  if (error instanceof TRPCClientError) {
    if (errorStatus(error) === undefined) return 'The console could not reach the server; check your connection and retry.';
    // Shown beside a form after logging in again too: the API's "Log in first" would no longer be true.
    if (errorStatus(error) === 401) return 'Your session ended before this was saved: log in, then save again.';
    return error.message;
  }
  return 'Something went wrong; retry.';
}

const endedSession = (during: 'query' | 'mutation') => (error: unknown) => {
  if (errorStatus(error) === 401) onSessionEnded(during);
};

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: endedSession('query') }),
  mutationCache: new MutationCache({ onError: endedSession('mutation') }),
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal (4xx) does not get better by asking again; a network fault or 5xx may.
      retry: (failures, error) => {
        const status = errorStatus(error);
        return failures < 2 && (status === undefined || status >= 500);
      },
      refetchOnWindowFocus: false,
    },
  },
});

const link = (service: 'identity' | 'recruiting' | 'integrations') =>
  httpBatchLink({ url: `/trpc/${service}`, fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }) });

export const identityClient = createTRPCClient<IdentityRouter>({ links: [link('identity')] });
export const recruitingClient = createTRPCClient<RecruitingRouter>({ links: [link('recruiting')] });
export const integrationsClient = createTRPCClient<IntegrationsRouter>({ links: [link('integrations')] });

export const identity = createTRPCOptionsProxy<IdentityRouter>({ client: identityClient, queryClient });
export const recruiting = createTRPCOptionsProxy<RecruitingRouter>({ client: recruitingClient, queryClient });
export const integrations = createTRPCOptionsProxy<IntegrationsRouter>({ client: integrationsClient, queryClient });
