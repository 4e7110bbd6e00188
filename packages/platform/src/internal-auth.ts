import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { Scope } from '@hireloop/contracts';
import { z } from 'zod';
import { parseKeyRing, type KeyRing } from './keys.js';

/**
 * Service-to-service identity (ARCHITECTURE.md "Boundaries"): a short-lived HS256 JWT signed with
 * the current key of INTERNAL_TOKEN_KEYS, its id in the `kid` header. `sub` is a user id, an API key id, or `system`; `org` is the organization
 * every call is confined to (null only for system calls that span organizations).
 */
export const InternalAuth = z.object({
  sub: z.string().min(1),
  org: z.string().nullable(),
  scopes: z.array(Scope),
  /**
   * The caller's name as the gateway knows it (the API key's, the session user's), for records
   * that name who acted (a review's reviewer): signed, so a request body cannot choose it.
   */
  name: z.string().optional(),
});
export type InternalAuth = z.infer<typeof InternalAuth>;

export const SYSTEM_SUBJECT = 'system';
const ISSUER = 'hireloop';
const AUDIENCE = 'hireloop-internal';
const TTL_SECONDS = 60;

/** The internal token keys from a KeyRing or its setting (`k1:<secret>,…`; tools pass the setting). */
export function internalTokenKeys(keys: KeyRing | string): KeyRing {
  return typeof keys === 'string' ? parseKeyRing(keys, 'secret') : keys;
}

export async function signInternalToken(keys: KeyRing, auth: InternalAuth, ttlSeconds = TTL_SECONDS): Promise<string> {
  const { id, secret } = keys.current;
  return new SignJWT({ org: auth.org, scopes: auth.scopes, ...(auth.name === undefined ? {} : { name: auth.name }) })
    .setProtectedHeader({ alg: 'HS256', kid: id })
    .setSubject(auth.sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/** Returns the caller's identity, or null for a missing, forged or expired token. */
/**
 * Returns the caller's identity, or null for a missing, forged or expired token. The `kid` header
 * picks the key; a token without one (signed before key ids) is tried with every key.
 */
export async function verifyInternalToken(keys: KeyRing, token: string | undefined): Promise<InternalAuth | null> {
  if (!token) return null;
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  const candidates = kid === undefined ? keys.keys : keys.keys.filter((k) => k.id === kid);
  for (const key of candidates) {
    try {
      const { payload } = await jwtVerify(token, key.secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
      const parsed = InternalAuth.safeParse({ sub: payload.sub, org: payload['org'] ?? null, scopes: payload['scopes'] ?? [], ...(payload['name'] === undefined ? {} : { name: payload['name'] }) });
      return parsed.success ? parsed.data : null;
    } catch {
      /* the next key, if any */
    }
  }
  return null;
}

/**
 * Mints tokens for one identity and reuses each until shortly before it expires, so a hot path
 * (the gateway calling a service per request) does not sign a JWT every time.
 */
export class InternalTokenCache {
  private readonly cache = new Map<string, { token: string; refreshAt: number }>();
  private readonly keys: KeyRing;
  constructor(keys: KeyRing | string) {
    this.keys = internalTokenKeys(keys);
  }

  async tokenFor(auth: InternalAuth): Promise<string> {
    const id = JSON.stringify([auth.sub, auth.org, auth.scopes, auth.name ?? null]);
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.refreshAt > now) return hit.token;
    const token = await signInternalToken(this.keys, auth);
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
  constructor(private readonly keys: KeyRing) {}

  async verify(token: string | undefined): Promise<InternalAuth | null> {
    if (!token) return null;
    const now = Date.now();
    const hit = this.verified.get(token);
    if (hit && hit.expiresAt > now) return hit.auth;
    const auth = await verifyInternalToken(this.keys, token);
    if (!auth) return null;
    const exp = decodeJwt(token).exp;
    if (this.verified.size > 10_000) this.verified.clear();
    if (exp) this.verified.set(token, { auth, expiresAt: exp * 1000 });
    return auth;
  }
}
