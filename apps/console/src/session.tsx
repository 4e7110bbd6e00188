// The cookie session: /auth/login, /auth/logout and /auth/session are the console's only calls
// outside tRPC (the gateway sets and clears the HttpOnly cookie there).
import { createContext, useContext, type ReactNode } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { User } from '@hireloop/contracts';

const SessionUser = User;
export type SessionUser = z.infer<typeof SessionUser>;

const ErrorEnvelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export class AuthError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function auth(path: string, init?: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`/auth/${path}`, { credentials: 'same-origin', headers: { accept: 'application/json', 'content-type': 'application/json' }, ...init });
  } catch {
    throw new AuthError(0, 'The console could not reach the server; check your connection and retry.');
  }
  if (res.status === 204) return null;
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const parsed = ErrorEnvelope.safeParse(body);
    throw new AuthError(res.status, parsed.success ? parsed.data.error.message : `The request failed (HTTP ${res.status}).`);
  }
  return body;
}

const SessionBody = z.object({ data: z.object({ user: SessionUser }) });

export const SESSION_KEY = ['auth', 'session'] as const;

/** The signed-in user, or null when there is no session (401). */
async function currentSession(): Promise<SessionUser | null> {
  try {
    return SessionBody.parse(await auth('session')).data.user;
  } catch (err) {
    if (err instanceof AuthError && err.status === 401) return null;
    throw err;
  }
}

export async function logIn(email: string, password: string): Promise<SessionUser> {
  const body = await auth('login', { method: 'POST', body: JSON.stringify({ email, password }) });
  return SessionBody.parse(body).data.user;
}

export async function logOut(): Promise<void> {
  await auth('logout', { method: 'POST' });
}

const SessionContext = createContext<SessionUser | null>(null);

/** The user of the session; only inside the signed-in layout. */
export function useSessionUser(): SessionUser {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useSessionUser outside the signed-in layout');
  return user;
}

export function SessionProvider({ user, children }: { user: SessionUser; children: ReactNode }) {
  return <SessionContext.Provider value={user}>{children}</SessionContext.Provider>;
}

const sessionQuery = { queryKey: SESSION_KEY, queryFn: currentSession, staleTime: Infinity, retry: 1 } as const;

export function useSession() {
  return useQuery(sessionQuery);
}

/** Asks for the session as the bundle starts, before React renders (it is the first thing every page needs). */
export function prefetchSession(queryClient: QueryClient): void {
  void queryClient.prefetchQuery(sessionQuery);
}

/** Forgets everything the signed-in user loaded (on logout and on an ended session). */
export function useForgetSession() {
  const queryClient = useQueryClient();
  return () => {
    queryClient.setQueryData(SESSION_KEY, null);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
  };
}
