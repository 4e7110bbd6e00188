import pg from 'pg';

/**
 * Least privilege in Postgres (PRODUCT.md §11): each service, and the gateway for its idempotency
 * schema, connects as its own role `<database>_<service>` (the database in the name, so stacks
 * sharing one cluster do not collide), which owns its schema and nothing else. Every other
 * schema is owned by another role and grants nothing, so a service cannot read another's tables.
 */
export const DATABASE_SERVICES = ['identity', 'recruiting', 'integrations', 'gateway'] as const;
export type DatabaseService = (typeof DATABASE_SERVICES)[number];

/** The env var that gives a service its own connection string; it overrides DATABASE_URL. */
export function databaseUrlEnv(service: DatabaseService): string {
  return `${service.toUpperCase()}_DATABASE_URL`;
}

export function roleName(database: string, service: DatabaseService): string {
  return `${database}_${service}`;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

export class MissingCreateRoleError extends Error {}

/**
 * Creates (or updates the password of) each service's role and gives it its schema: a schema
 * that does not exist yet is created owned by the role; one made earlier by another role (a dev
 * database from before roles) is handed over with every object in it. Returns each service's
 * connection string. `adminUrl` must be a superuser or a role with CREATEROLE; otherwise the error
 * says which SQL to run, or which per-service URLs to set instead.
 */
export async function ensureServiceRoles(adminUrl: string, passwords: Record<DatabaseService, string>): Promise<Record<DatabaseService, string>> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const me = (await client.query<{ user: string; database: string; super: boolean; createrole: boolean }>(
      'select current_user as user, current_database() as database, rolsuper as super, rolcreaterole as createrole from pg_roles where rolname = current_user',
    )).rows[0]!;
    if (!me.super && !me.createrole) throw new MissingCreateRoleError(missingCreateRoleMessage(me.user, me.database));
    const urls = {} as Record<DatabaseService, string>;
    for (const service of DATABASE_SERVICES) {
      const role = roleName(me.database, service);
      const exists = (await client.query('select 1 from pg_roles where rolname = $1', [role])).rowCount === 1;
      // A password is not a bind parameter in DDL; it is quoted as a literal and never logged.
      await client.query(`${exists ? 'alter' : 'create'} role ${ident(role)} login nosuperuser nocreatedb nocreaterole password ${literal(passwords[service])}`);
      // Non-superusers must be members of a role to hand it objects (PostgreSQL 16+ rules).
      if (!me.super) await client.query(`grant ${ident(role)} to current_user`);
      await client.query(`grant connect on database ${ident(me.database)} to ${ident(role)}`);
      await giveSchema(client, service, role);
      const url = new URL(adminUrl);
      url.username = encodeURIComponent(role);
      url.password = encodeURIComponent(passwords[service]);
      urls[service] = url.toString();
    }
    return urls;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function giveSchema(client: pg.Client, schema: string, role: string): Promise<void> {
  const owner = (await client.query<{ owner: string }>('select nspowner::regrole::text as owner from pg_namespace where nspname = $1', [schema])).rows[0]?.owner;
  if (owner === undefined) {
    await client.query(`create schema ${ident(schema)} authorization ${ident(role)}`);
    return;
  }
  if (owner.replace(/^"|"$/g, '') !== role) await client.query(`alter schema ${ident(schema)} owner to ${ident(role)}`);
  // Tables, views and sequences made by another role (migrations run as the superuser before
  // roles existed) are handed over too; indexes follow their tables, owned sequences their columns.
  const objects = await client.query<{ name: string; kind: string }>(
    `select c.relname as name, c.relkind as kind from pg_class c join pg_namespace n on n.oid = c.relnamespace
     left join pg_depend d on d.objid = c.oid and d.deptype in ('a', 'i') and c.relkind = 'S'
     where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and d.objid is null and pg_get_userbyid(c.relowner) <> $2`,
    [schema, role],
  );
  for (const { name, kind } of objects.rows) {
    const what = kind === 'S' ? 'sequence' : kind === 'v' ? 'view' : kind === 'm' ? 'materialized view' : kind === 'f' ? 'foreign table' : 'table';
    await client.query(`alter ${what} ${ident(schema)}.${ident(name)} owner to ${ident(role)}`);
  }
}

function missingCreateRoleMessage(user: string, database: string): string {
  const lines = DATABASE_SERVICES.flatMap((s) => {
    const role = roleName(database, s);
    return [
      `  create role ${ident(role)} login password '<a password>';`,
      `  create schema if not exists ${s} authorization ${ident(role)};`,
    ];
  });
  return [
    `The role ${user} may not create roles, and every service connects as its own role (PRODUCT.md §11).`,
    'Either give it CREATEROLE, or have an administrator run, in this database:',
    ...lines,
    `and then set ${DATABASE_SERVICES.map(databaseUrlEnv).join(', ')} to postgres://<role>:<password>@host/${database}.`,
  ].join('\n');
}
