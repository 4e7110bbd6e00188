import { AppError, inTransaction, newId, recordAudit, sql, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type Organization } from '@hireloop/contracts';
import { SCHEMA, type Db, type IdentityDB } from '../db.js';
import { createUser } from '../users/users.queries.js';

export const DEMO_SLUG = 'demo';

export async function createOrganization(db: Db, name: string, slug: string | null = null): Promise<Organization> {
  return inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto('identity.organizations')
      .values({ id: newId(ID_PREFIXES.organization), name, slug })
      .returning(['id', 'name'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, SCHEMA, row.id, 'organization.created', { type: 'organization', id: row.id });
    return row;
  });
}

export async function getOrganization(db: Db, id: string): Promise<Organization> {
  const row = await db.selectFrom('identity.organizations').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No organization ${id}.`);
  return row;
}

export async function findOrganizationBySlug(db: Db, slug: string): Promise<Organization | null> {
  return (await db.selectFrom('identity.organizations').select(['id', 'name']).where('slug', '=', slug).executeTakeFirst()) ?? null;
}

/**
 * Creates the demo organization and its admin on the first start; later starts find them.
 * Runs in one transaction so two starts at once cannot create two demo organizations.
 */
export async function ensureDemoOrganization(db: Kysely<IdentityDB>, admin: { email: string; name: string; password: string }) {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('identity.demo_organization'))`.execute(trx);
    const existing = await findOrganizationBySlug(trx, DEMO_SLUG);
    if (existing) return { organization: existing, created: false };
    const organization = await createOrganization(trx, 'Demo Recruiting Co.', DEMO_SLUG);
    await createUser(trx, organization.id, admin);
    return { organization, created: true };
  });
}
