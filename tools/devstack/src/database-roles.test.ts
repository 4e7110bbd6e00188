import { describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import pg from 'pg';
import { ROOT } from './paths.js';
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

/** A database of the test's own on the stack's cluster. */
async function scratchDatabase(prefix: string): Promise<{ admin: string; name: string; dbUrl: string }> {
  const admin = testEnv().databaseUrl;
  const name = `${prefix}_${process.pid}`;
  await withClient(admin, (c) => c.query(`drop database if exists ${name}`).then(() => c.query(`create database ${name}`)));
  return { admin, name, dbUrl: urlOf(admin, { database: name }) };
}

/** Drops a scratch database and the service roles made for it (roles belong to the cluster). */
async function dropWithRoles(adminUrl: string, database: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    await c.query(`drop database if exists ${database} with (force)`);
    for (const s of DATABASE_SERVICES) await c.query(`drop role if exists "${roleName(database, s)}"`);
  });
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
    const { admin, name, dbUrl } = await scratchDatabase('roles');
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
      await dropWithRoles(admin, name);
    }
  });

  it("docker-compose's deploy/postgres-roles.sql (psql) makes the same roles and hands over a schema made by the superuser", async () => {
    const { admin, name, dbUrl } = await scratchDatabase('compose_roles');
    const pw = { identity: 'pw-i-0123456789', recruiting: 'pw-r-0123456789', integrations: 'pw-n-0123456789', gateway: 'pw-g-0123456789' };
    const psql = () => execFileSync('psql', [dbUrl, '--quiet', ...Object.entries(pw).map(([s, p]) => `--set=${s}_pw=${p}`), `--file=${join(ROOT, 'deploy/postgres-roles.sql')}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await withClient(dbUrl, (c) => c.query('create schema identity; create table identity.api_keys (id bigint generated always as identity primary key, v text)'));
      psql();
      psql(); // at every `up`
      for (const service of DATABASE_SERVICES) {
        await withClient(urlOf(dbUrl, { user: roleName(name, service), password: pw[service] }), async (c) => {
          await c.query(`create table ${service}.probe (x int)`);
          if (service === 'identity') await c.query(`insert into identity.api_keys (v) values ('x')`);
          else await assert.rejects(c.query('select * from identity.api_keys'), /permission denied/, service);
        });
      }
    } finally {
      await dropWithRoles(admin, name);
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
