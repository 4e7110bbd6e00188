import { createHash } from 'node:crypto';
import { sql } from '@hireloop/platform';
import type { Db, IdentityDB } from '../db.js';
import type { Kysely } from '@hireloop/platform';

/** PRODUCT.md §11's console-login limits; every one is a setting (see config.ts). */
export interface LoginThrottlePolicy {
  /** Failures for one submitted e-mail within the window before it is locked. */
  maxFailuresPerEmail: number;
  /** Failures from one client IP within the window before it is refused. */
  maxFailuresPerIp: number;
  windowSeconds: number;
  /** First lockout of an e-mail; each further one doubles, up to the maximum. */
  lockoutSeconds: number;
  maxLockoutSeconds: number;
}

export interface ThrottleKeys {
  email: string;
  ip: string | null;
}

/** The e-mail as the throttle sees it: the lockout holds whatever case or spacing is submitted. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

// Keys are hashed so the table holds no e-mail or IP address (nor a password typed into the e-mail field).
const keyOf = (kind: 'email' | 'ip', value: string) => createHash('sha256').update(`${kind}:${value}`).digest('base64url');

/** Seconds until login may be tried again for this e-mail or IP, or null when it is not locked. */
export async function lockedFor(db: Db, keys: ThrottleKeys): Promise<number | null> {
  const ids = [keyOf('email', keys.email), ...(keys.ip ? [keyOf('ip', keys.ip)] : [])];
  const row = await db
    .selectFrom('identity.login_throttles')
    .select(sql<number>`ceil(extract(epoch from max(locked_until) - now()))::int`.as('seconds'))
    .where('key', 'in', ids)
    .where('locked_until', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.seconds ? Math.max(1, row.seconds) : null;
}

interface ThrottleRow {
  failures: number;
  lockouts: number;
  window_expired: boolean;
  quiet: boolean;
}

/**
 * Counts one failed login against the e-mail and the IP, atomically across identity instances
 * (a row lock per key, taken in key order). An e-mail is locked once it reaches the failure limit
 * within the window, and again at each further failure, the lock doubling up to the maximum; an IP
 * is refused for the rest of its window once it reaches its limit.
 */
export async function recordLoginFailure(db: Kysely<IdentityDB>, policy: LoginThrottlePolicy, keys: ThrottleKeys): Promise<void> {
  const entries = [{ key: keyOf('email', keys.email), kind: 'email' as const }, ...(keys.ip ? [{ key: keyOf('ip', keys.ip), kind: 'ip' as const }] : [])].sort((a, b) =>
    a.key < b.key ? -1 : 1,
  );
  const window = policy.windowSeconds;
  await db.transaction().execute(async (trx) => {
    for (const { key, kind } of entries) {
      await sql`insert into identity.login_throttles (key, failures, window_started_at, updated_at) values (${key}, 0, now(), now()) on conflict (key) do nothing`.execute(trx);
      const { rows } = await sql<ThrottleRow>`
        select failures, lockouts,
               window_started_at < now() - make_interval(secs => ${window}) as window_expired,
               greatest(updated_at, locked_until) < now() - make_interval(secs => ${window}) as quiet
        from identity.login_throttles where key = ${key} for update`.execute(trx);
      const row = rows[0]!;
      // A key quiet for a whole window starts afresh; a new window keeps the lockout count, so the
      // next lock of an e-mail still doubles.
      const lockouts = row.quiet ? 0 : row.lockouts;
      const failures = (row.quiet || row.window_expired ? 0 : row.failures) + 1;
      const restart = row.quiet || row.window_expired;
      let lockSeconds: number | null = null;
      let nextLockouts = lockouts;
      if (kind === 'email' && failures >= policy.maxFailuresPerEmail) {
        nextLockouts = lockouts + 1;
        lockSeconds = Math.min(policy.lockoutSeconds * 2 ** (nextLockouts - 1), policy.maxLockoutSeconds);
      }
      await sql`
        update identity.login_throttles set
          failures = ${failures},
          lockouts = ${nextLockouts},
          window_started_at = case when ${restart} then now() else window_started_at end,
          locked_until = case
            when ${lockSeconds}::float8 is not null then now() + make_interval(secs => ${lockSeconds}::float8)
            when ${kind === 'ip' && failures >= policy.maxFailuresPerIp} then
              (case when ${restart} then now() else window_started_at end) + make_interval(secs => ${window})
            else locked_until end,
          updated_at = now()
        where key = ${key}`.execute(trx);
    }
    // Forget keys that have been quiet for a window; they would start afresh anyway.
    await sql`delete from identity.login_throttles
      where updated_at < now() - make_interval(secs => ${window}) and (locked_until is null or locked_until < now() - make_interval(secs => ${window}))`.execute(trx);
  });
}

/** A successful login ends the e-mail's lockout history; the IP's failures still count. */
export async function clearLoginFailures(db: Db, email: string): Promise<void> {
  await db.deleteFrom('identity.login_throttles').where('key', '=', keyOf('email', email)).execute();
}
