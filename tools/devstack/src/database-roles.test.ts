import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { testEnv } from './testing.js';
import { DATABASE_SERVICES, databaseUrlEnv, ensureServiceRoles, MissingCreateRoleError, roleName } from './database-roles.js';

/** One table of each service's schema. */
const TABLES = { identity: 'identity.api_keys', recruiting: 'recruiting.interviews', integrations: 'integrations.webhooks', gateway: 'gateway.idempotency_keys' } as const;

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function urlOf(base: string, changes: { database?: string; user?: string; password?: string }): string {
  const url = new URL(base);
  if (changes.database) url.pathname = `/${changes.database}`;
  if (changes.user) url.username = changes.user;
  if (changes.password) url.password = changes.password;
  return url.toString();
}

describe('Postgres roles per service (PRODUCT.md §11)', () => {
  it("each service connects as <database>_<service> and reads its own tables only: recruiting's role cannot read identity.api_keys", async () => {
    const database = new URL(testEnv().databaseUrl).pathname.slice(1);
    for (const service of DATABASE_SERVICES) {
      const url = process.env[databaseUrlEnv(service)];
      assert.ok(url, `${databaseUrlEnv(service)} is set for the stack`);
      await withClient(url, async (c) => {
        assert.equal((await c.query('select current_user as u')).rows[0].u, roleName(database, service));
        await c.query(`select count(*) from ${TABLES[service]}`);
        for (const [other, table] of Object.entries(TABLES)) {
          if (other === service) continue;
          await assert.rejects(c.query(`select * from ${table} limit 1`), /permission denied/, `${service} reads ${table}`);
        }
        await assert.rejects(c.query(`create table ${other(service)}.intruder (x int)`), /permission denied/);
      });
    }
  });

  it('hands a schema made by another role (a dev database from before roles) over to the service role, objects included', async () => {
    const admin = testEnv().databaseUrl;
    const name = `roles_${process.pid}`;
    await withClient(admin, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
    const dbUrl = urlOf(admin, { database: name });
    const passwords = { identity: 'pw-identity-0123456789', recruiting: 'pw-recruiting-0123456789', integrations: 'pw-integrations-0123456789', gateway: 'pw-gateway-0123456789' };
    try {
      await withClient(dbUrl, (c) => c.query('create schema recruiting; create table recruiting.old (id bigserial primary key, v text); insert into recruiting.old (v) values ($$kept$$)'));
      const urls = await ensureServiceRoles(dbUrl, passwords);
      await ensureServiceRoles(dbUrl, passwords); // idempotent
      await withClient(urls.recruiting, async (c) => {
        assert.equal((await c.query('select v from recruiting.old')).rows[0].v, 'kept');
        await c.query(`insert into recruiting.old (v) values ('new')`);
        await c.query('create table recruiting.fresh (x int)');
      });
      await withClient(urls.identity, (c) => assert.rejects(c.query('select * from recruiting.old'), /permission denied/));
    } finally {
      await withClient(admin, async (c) => {
        await c.query(`drop database if exists ${name} with (force)`);
        for (const s of DATABASE_SERVICES) await c.query(`drop role if exists "${roleName(name, s)}"`);
      });
    }
  });

  it('a DATABASE_URL whose role may not create roles gets the SQL to run', async () => {
    const admin = testEnv().databaseUrl;
    const role = `nocreaterole_${process.pid}`;
    await withClient(admin, (c) => c.query(`drop role if exists ${role}`).then(() => c.query(`create role ${role} login password 'pw-0123456789'`)));
    try {
      const database = new URL(admin).pathname.slice(1);
      await assert.rejects(ensureServiceRoles(urlOf(admin, { user: role, password: 'pw-0123456789' }), { identity: 'a', recruiting: 'b', integrations: 'c', gateway: 'd' }), (err: Error) => {
        assert.ok(err instanceof MissingCreateRoleError);
        assert.match(err.message, new RegExp(`create role "${database}_recruiting" login`));
        assert.match(err.message, /RECRUITING_DATABASE_URL/);
        return true;
      });
    } finally {
      await withClient(admin, (c) => c.query(`drop role if exists ${role}`));
    }
  });
});

/** Another service's schema than `service`. */
function other(service: string): string {
  return service === 'identity' ? 'recruiting' : 'identity';
}
