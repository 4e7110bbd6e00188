import { createHash, randomBytes } from 'node:crypto';
import { AppError, newId } from '@hireloop/platform';
import { ID_PREFIXES, type User } from '@hireloop/contracts';
import type { Db } from '../db.js';
import { verifyPassword } from './passwords.js';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Checks the password and opens a session; the token is returned once and stored only hashed. */
export async function login(db: Db, email: string, password: string, ttlHours: number): Promise<{ token: string; expiresAt: string; user: User }> {
  const user = await db
    .selectFrom('identity.users as u')
    .innerJoin('identity.organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.name', 'u.password_hash', 'o.id as org_id', 'o.name as org_name'])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  // Same error for an unknown e-mail and a wrong password: no account enumeration.
  if (!user || !(await verifyPassword(password, user.password_hash))) {
    throw new AppError('invalid_credentials', 'E-mail or password is incorrect.');
  }
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
  await db
    .insertInto('identity.sessions')
    .values({ id: newId(ID_PREFIXES.session), token_hash: hashToken(token), user_id: user.id, expires_at: expiresAt })
    .execute();
  return {
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

export async function logout(db: Db, token: string): Promise<void> {
  await db.updateTable('identity.sessions').set({ revoked_at: new Date() }).where('token_hash', '=', hashToken(token)).where('revoked_at', 'is', null).execute();
}
