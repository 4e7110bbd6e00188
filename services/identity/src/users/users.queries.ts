import { AppError, inTransaction, newId, recordAudit, uniqueViolationOf } from '@hireloop/platform';
import { ID_PREFIXES } from '@hireloop/contracts';
import { SCHEMA, type Db } from '../db.js';
import { hashPassword } from '../sessions/passwords.js';

export interface NewUser {
  email: string;
  name: string;
  password: string;
}

/** A console user of an organization; the password is stored as an argon2id hash only. */
export async function createUser(db: Db, organizationId: string, input: NewUser) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(db, async (trx) => {
      const user = await trx
        .insertInto('identity.users')
        .values({ id: newId(ID_PREFIXES.user), organization_id: organizationId, email: input.email.trim(), name: input.name, password_hash: passwordHash })
        .returning(['id', 'email', 'name', 'organization_id as organizationId'])
        .executeTakeFirstOrThrow();
      await recordAudit(trx, SCHEMA, organizationId, 'user.created', { type: 'user', id: user.id });
      return user;
    });
  } catch (err) {
    if (uniqueViolationOf(err) !== null) throw new AppError('conflict', 'A user with this e-mail already exists.');
    throw err;
  }
}
