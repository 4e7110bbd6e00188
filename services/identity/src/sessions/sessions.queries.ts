import { createHash, randomBytes } from 'node:crypto';
import { AppError, newId, purgeInBatches, recordAudit, sql, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type User } from '@hireloop/contracts';
import { SCHEMA, type Db, type IdentityDB } from '../db.js';
import type { Passwords } from './passwords.js';
import { beginLoginAttempt, loginSucceeded, normaliseEmail, type LoginThrottlePolicy } from './login-throttle.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export interface LoginDeps {
  ttlHours: number;
  throttle: LoginThrottlePolicy;
  passwords: Passwords;
}

export type LoginResult =
  | { outcome: 'session'; token: string; expiresAt: string; user: User }
  | { outcome: 'throttled'; retryAfterSeconds: number };

/**
 * Checks the password and opens a session; the token is returned once and stored only hashed.
 * Throttled per submitted e-mail and per client IP (PRODUCT.md §11). An unknown e-mail is checked
 * against a dummy hash, so it costs the same hashing work as a wrong password; a legacy hash is
 * replaced by an argon2id one once the password has proved right, audited as `user.password_rehashed`
 * in the transaction that opens the session.
 */
export async function login(db: Kysely<IdentityDB>, deps: LoginDeps, input: { email: string; password: string; ip: string | null }): Promise<LoginResult> {
  const keys = { email: normaliseEmail(input.email), ip: input.ip };
  const throttled = await beginLoginAttempt(db, deps.throttle, keys);
  if (throttled) return { outcome: 'throttled', ...throttled };

  const user = await db
    .selectFrom('identity.users as u')
    .innerJoin('identity.organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.name', 'u.password_hash', 'o.id as org_id', 'o.name as org_name'])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', keys.email))
    .executeTakeFirst();
  const matches = await deps.passwords.verify(input.password, user?.password_hash ?? (await deps.passwords.dummyHash()));
  if (!user || !matches) {
    // Already counted by beginLoginAttempt. The same error for an unknown e-mail and a wrong
    // password: no account enumeration.
    throw new AppError('invalid_credentials', 'E-mail or password is incorrect.');
  }
  await loginSucceeded(db, deps.throttle, keys);
  // Hashed before the transaction (argon2id takes tens of milliseconds), written in it.
  const rehash = deps.passwords.needsRehash(user.password_hash) ? await deps.passwords.hash(input.password) : null;
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.ttlHours * 3600_000);
  const sessionId = newId(ID_PREFIXES.session);
  // The platform calls, but the user the password proved is the one who acted (audit.ts).
  await db.transaction().execute(async (trx) => {
    if (rehash) {
      // A write to the user's credentials is audited like any other: the user's id, nothing else of them.
      const replaced = await trx.updateTable('identity.users').set({ password_hash: rehash }).where('id', '=', user.id).where('password_hash', '=', user.password_hash).executeTakeFirst();
      if (replaced.numUpdatedRows > 0n) await recordAudit(trx, SCHEMA, user.org_id, 'user.password_rehashed', { type: 'user', id: user.id }, user.id);
    }
    await trx.insertInto('identity.sessions').values({ id: sessionId, token_hash: hashToken(token), user_id: user.id, expires_at: expiresAt }).execute();
    await recordAudit(trx, SCHEMA, user.org_id, 'session.created', { type: 'session', id: sessionId }, user.id);
  });
  return {
    outcome: 'session',
    token,
    expiresAt: expiresAt.toISOString(),
    user: { id: user.id, email: user.email, name: user.name, organization: { id: user.org_id, name: user.org_name } },
  };
}

export async function verifySession(db: Db, token: string): Promise<User | null> {
  const row = await db
    .selectFrom('identity.sessions as s')
    .innerJoin('identity.users as u', 'u.id', 's.user_id')
    .innerJoin('identity.organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.name', 'o.id as org_id', 'o.name as org_name'])
    .where('s.token_hash', '=', hashToken(token))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', new Date())
    .executeTakeFirst();
  return row ? { id: row.id, email: row.email, name: row.name, organization: { id: row.org_id, name: row.org_name } } : null;
}

/** Revokes the session, recorded as its user's `session.revoked`; an unknown or revoked token writes nothing. */
export async function logout(db: Kysely<IdentityDB>, token: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('identity.sessions')
      .set({ revoked_at: new Date() })
      .where('token_hash', '=', hashToken(token))
      .where('revoked_at', 'is', null)
      .returning(['id', 'user_id'])
      .executeTakeFirst();
    if (!revoked) return;
    const user = await trx.selectFrom('identity.users').select('organization_id').where('id', '=', revoked.user_id).executeTakeFirstOrThrow();
    await recordAudit(trx, SCHEMA, user.organization_id, 'session.revoked', { type: 'session', id: revoked.id }, revoked.user_id);
  });
}

/**
 * The retention purge of console sessions that can no longer be used (expired or logged out),
 * run hourly by the `purge-identity` Temporal schedule.
 */
export async function purgeDeadSessions(db: Kysely<IdentityDB>): Promise<{ sessions: number }> {
  return { sessions: await purgeInBatches(db, { schema: 'identity', table: 'sessions', key: 'id' }, sql`expires_at < now() or revoked_at is not null`) };
}
