import { createHash } from 'node:crypto';
import { sql } from '@hireloop/platform';
import type { IdentityDB } from '../db.js';
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

interface ThrottleRow {
  failures: number;
  lockouts: number;
  window_expired: boolean;
  quiet: boolean;
  locked_for: number | null;
}

const entriesOf = (keys: ThrottleKeys) =>
  [{ key: keyOf('email', keys.email), kind: 'email' as const }, ...(keys.ip ? [{ key: keyOf('ip', keys.ip), kind: 'ip' as const }] : [])].sort((a, b) => (a.key < b.key ? -1 : 1));

/**
 * Starts a login attempt: refused (seconds to wait) while the e-mail or the IP is locked; otherwise
 * counted as a failure *before* the password is checked, so that parallel guesses cannot all slip
 * in under the limit; loginSucceeded takes it back. Atomic across identity instances (a row lock
 * per key, taken in key order). An e-mail is locked once it reaches its failure limit within the
 * window, and again at each further failure, the lock doubling up to the maximum; an IP is locked
 * for the rest of its window once it reaches its limit.
 */
export async function beginLoginAttempt(db: Kysely<IdentityDB>, policy: LoginThrottlePolicy, keys: ThrottleKeys): Promise<{ retryAfterSeconds: number } | null> {
  const window = policy.windowSeconds;
  return db.transaction().execute(async (trx) => {
    const rows = [];
    for (const entry of entriesOf(keys)) {
      await sql`insert into identity.login_throttles (key, failures, window_started_at, updated_at) values (${entry.key}, 0, now(), now()) on conflict (key) do nothing`.execute(trx);
      const { rows: found } = await sql<ThrottleRow>`
        select failures, lockouts,
               window_started_at < now() - make_interval(secs => ${window}) as window_expired,
               greatest(updated_at, locked_until) < now() - make_interval(secs => ${window}) as quiet,
               case when locked_until > now() then ceil(extract(epoch from locked_until - now()))::int end as locked_for
        from identity.login_throttles where key = ${entry.key} for update`.execute(trx);
      rows.push({ ...entry, row: found[0]! });
    }
    const waits = rows.map((r) => r.row.locked_for).filter((w): w is number => w !== null);
    if (waits.length > 0) return { retryAfterSeconds: Math.max(1, ...waits) };

    for (const { key, kind, row } of rows) {
      // A key quiet for a whole window starts afresh; a new window keeps the lockout count, so the
      // next lock of an e-mail still doubles.
      const restart = row.quiet || row.window_expired;
      const failures = (restart ? 0 : row.failures) + 1;
      let lockouts = row.quiet ? 0 : row.lockouts;
      let lockSeconds: number | null = null;
      if (kind === 'email' && failures >= policy.maxFailuresPerEmail) {
        lockouts += 1;
        lockSeconds = Math.min(policy.lockoutSeconds * 2 ** (lockouts - 1), policy.maxLockoutSeconds);
      }
      await sql`
        update identity.login_throttles set
          failures = ${failures},
          lockouts = ${lockouts},
          window_started_at = case when ${restart} then now() else window_started_at end,
          locked_until = case
            when ${lockSeconds}::float8 is not null then now() + make_interval(secs => ${lockSeconds}::float8)
            when ${kind === 'ip' && failures >= policy.maxFailuresPerIp} then
              (case when ${restart} then now() else window_started_at end) + make_interval(secs => ${window})
            else locked_until end,
          updated_at = now()
        where key = ${key}`.execute(trx);
    }
    // Forget keys that have been quiet for a window; they would start afresh anyway. SKIP LOCKED:
    // a row another attempt holds is left for later, so this never waits on (or deadlocks with) it.
    await sql`delete from identity.login_throttles where key in (
      select key from identity.login_throttles
      where updated_at < now() - make_interval(secs => ${window}) and (locked_until is null or locked_until < now() - make_interval(secs => ${window}))
      for update skip locked)`.execute(trx);
    return null;
  });
}

/**
 * The password was right: the e-mail's lockout history ends, and the attempt counted against the
 * IP is taken back (only failures count there), lifting its lock if that attempt had set it.
 */
export async function loginSucceeded(db: Kysely<IdentityDB>, policy: LoginThrottlePolicy, keys: ThrottleKeys): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Row locks in key order, as beginLoginAttempt takes them, so the two never deadlock.
    const ordered = entriesOf(keys).map((e) => e.key);
    await sql`select key from identity.login_throttles where key = any(${ordered}) order by key for update`.execute(trx);
    await trx.deleteFrom('identity.login_throttles').where('key', '=', keyOf('email', keys.email)).execute();
    if (!keys.ip) return;
    await sql`
      update identity.login_throttles set
        failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${policy.maxFailuresPerIp} then null else locked_until end
      where key = ${keyOf('ip', keys.ip)}`.execute(trx);
  });
}
