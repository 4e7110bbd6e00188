import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import { Scope } from '@hireloop/contracts';
import { z } from 'zod';

/**
 * Service-to-service identity (ARCHITECTURE.md "Boundaries"): a short-lived HS256 JWT signed with
 * INTERNAL_AUTH_SECRET. `sub` is a user id, an API key id, or `system`; `org` is the organization
 * every call is confined to (null only for system calls that span organizations).
 */
export const InternalAuth = z.object({
  sub: z.string().min(1),
  org: z.string().nullable(),
  scopes: z.array(Scope),
});
export type InternalAuth = z.infer<typeof InternalAuth>;

export const SYSTEM_SUBJECT = 'system';
const ISSUER = 'hireloop';
const AUDIENCE = 'hireloop-internal';
const TTL_SECONDS = 60;

export function internalKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function signInternalToken(key: Uint8Array, auth: InternalAuth, ttlSeconds = TTL_SECONDS): Promise<string> {
  return new SignJWT({ org: auth.org, scopes: auth.scopes })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(auth.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key);
}

/** Returns the caller's identity, or null for a missing, forged or expired token. */
export async function verifyInternalToken(key: Uint8Array, token: string | undefined): Promise<InternalAuth | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
    const parsed = InternalAuth.safeParse({ sub: payload.sub, org: payload['org'] ?? null, scopes: payload['scopes'] ?? [] });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Mints tokens for one identity and reuses each until shortly before it expires, so a hot path
 * (the gateway calling a service per request) does not sign a JWT every time.
 */
export class InternalTokenCache {
  private readonly cache = new Map<string, { token: string; refreshAt: number }>();
  constructor(private readonly key: Uint8Array) {}

  async tokenFor(auth: InternalAuth): Promise<string> {
    const id = `${auth.sub}|${auth.org ?? ''}|${auth.scopes.join(',')}`;
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.refreshAt > now) return hit.token;
    const token = await signInternalToken(this.key, auth);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { token, refreshAt: now + (TTL_SECONDS - 15) * 1000 });
    return token;
  }
}

/**
 * Verifies internal tokens, remembering each verified token until it expires: callers reuse a
 * token for most of its minute (InternalTokenCache), so a service verifies the signature once
 * per caller and minute instead of on every request. Unknown or bad tokens are never cached.
 */
export class InternalTokenVerifier {
  private readonly verified = new Map<string, { auth: InternalAuth; expiresAt: number }>();
  constructor(private readonly key: Uint8Array) {}

  async verify(token: string | undefined): Promise<InternalAuth | null> {
    if (!token) return null;
    const now = Date.now();
    const hit = this.verified.get(token);
    if (hit && hit.expiresAt > now) return hit.auth;
    const auth = await verifyInternalToken(this.key, token);
    if (!auth) return null;
    const exp = decodeJwt(token).exp;
    if (this.verified.size > 10_000) this.verified.clear();
    if (exp) this.verified.set(token, { auth, expiresAt: exp * 1000 });
    return auth;
  }
}
