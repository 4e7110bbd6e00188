import { hashApiKey, isWellFormedApiKey, sql } from '@hireloop/platform';
import type { Scope } from '@hireloop/contracts';
import type { Db } from '../db.js';

/** The token bucket's state after this request, for the RateLimit headers (PRODUCT.md §4). */
export interface RateLimitState {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed again (0 when allowed). */
  retryAfterSeconds: number;
}

export type AuthenticationResult =
  | { status: 'invalid' }
  | { status: 'revoked' }
  | {
      status: 'valid';
      organization: { id: string; name: string };
      key: { id: string; name: string; prefix: string; createdAt: string };
      scopes: Scope[];
      rateLimit: RateLimitState;
    };

const WINDOW_SECONDS = 60;

interface Row {
  id: string;
  organization_id: string;
  org_name: string;
  name: string;
  prefix: string;
  scopes: string[];
  rate_limit_per_minute: number;
  created_at: Date;
  revoked_at: Date | null;
  tokens: number | null;
  allowed: boolean | null;
}

/**
 * Verifies an API key and takes one request from its rate-limit bucket in a single round trip:
 * look the key up by hash, refill and draw from its token bucket (atomic upsert, shared by every
 * gateway instance), and touch last_used_at at most once a minute. Never cached, so a revoked
 * key fails on the very next request. A malformed key is refused before any query.
 */
export async function authenticateApiKey(db: Db, key: string): Promise<AuthenticationResult> {
  if (!isWellFormedApiKey(key)) return { status: 'invalid' };
  const { rows } = await sql<Row>`
    with k as (
      select k.id, k.organization_id, o.name as org_name, k.name, k.prefix, k.scopes,
             k.rate_limit_per_minute, k.created_at, k.revoked_at
      from identity.api_keys k join identity.organizations o on o.id = k.organization_id
      where k.key_hash = ${hashApiKey(key)}
    ),
    touched as (
      update identity.api_keys set last_used_at = now()
      where id = (select id from k where revoked_at is null)
        and (last_used_at is null or last_used_at < now() - interval '1 minute')
      returning id
    ),
    bucket as (
      insert into identity.rate_limit_buckets as b (key_id, tokens, refilled_at, allowed)
      select id, rate_limit_per_minute - 1, clock_timestamp(), true from k where revoked_at is null
      on conflict (key_id) do update set
        tokens = case
          when least(excluded.tokens + 1, b.tokens + extract(epoch from excluded.refilled_at - b.refilled_at) * (excluded.tokens + 1) / ${WINDOW_SECONDS}) >= 1
          then least(excluded.tokens + 1, b.tokens + extract(epoch from excluded.refilled_at - b.refilled_at) * (excluded.tokens + 1) / ${WINDOW_SECONDS}) - 1
          else least(excluded.tokens + 1, b.tokens + extract(epoch from excluded.refilled_at - b.refilled_at) * (excluded.tokens + 1) / ${WINDOW_SECONDS})
        end,
        allowed = least(excluded.tokens + 1, b.tokens + extract(epoch from excluded.refilled_at - b.refilled_at) * (excluded.tokens + 1) / ${WINDOW_SECONDS}) >= 1,
        refilled_at = excluded.refilled_at
      returning key_id, tokens, allowed
    )
    select k.*, bucket.tokens, bucket.allowed from k left join bucket on bucket.key_id = k.id
  `.execute(db);
  const row = rows[0];
  if (!row) return { status: 'invalid' };
  if (row.revoked_at) return { status: 'revoked' };
  const limit = row.rate_limit_per_minute;
  const tokens = row.tokens ?? 0;
  const perSecond = limit / WINDOW_SECONDS;
  return {
    status: 'valid',
    organization: { id: row.organization_id, name: row.org_name },
    key: { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.created_at.toISOString() },
    scopes: row.scopes as Scope[],
    rateLimit: {
      allowed: row.allowed ?? false,
      limit,
      windowSeconds: WINDOW_SECONDS,
      remaining: Math.max(0, Math.floor(tokens)),
      resetSeconds: Math.ceil((limit - tokens) / perSecond),
      retryAfterSeconds: row.allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perSecond)),
    },
  };
}
