import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createPool, sql, type Kysely } from './db.js';
import { compiledOnce } from './compiled-query.js';

/** Real Postgres (the test stack's database). */
const url = process.env['DATABASE_URL']!;
const SCHEMA = 'compiled_query_test';

interface TestDB {
  'compiled_query_test.people': { id: number; name: string; team: string; joined: Date };
}

describe('compiledOnce: a statement compiled on its first call, bound on every call', () => {
  const db = createDb<TestDB>(createPool({ url, applicationName: 'compiled-query-test', max: 2 }));
  before(async () => {
    await sql`create schema if not exists ${sql.id(SCHEMA)}`.execute(db);
    await sql`drop table if exists ${sql.id(SCHEMA, 'people')}`.execute(db);
    await sql`create table ${sql.id(SCHEMA, 'people')} (id int primary key, name text not null, team text not null, joined timestamptz not null)`.execute(db);
  });
  after(async () => {
    await sql`drop schema if exists ${sql.id(SCHEMA)} cascade`.execute(db);
    await db.destroy();
  });

  const insert = compiledOnce((d: Kysely<TestDB>, id: number, name: string, joined: Date) =>
    d.insertInto('compiled_query_test.people').values({ id, name, team: 'core', joined }).returning(['id', 'name', 'team', 'joined']),
  );
  // A constant of the query's own ('core'), a parameter used twice, and one that is a Date.
  const byName = compiledOnce((d: Kysely<TestDB>, name: string, after: Date) =>
    d
      .selectFrom('compiled_query_test.people')
      .select(['id', 'name'])
      .where('team', '=', 'core')
      .where((eb) => eb.or([eb('name', '=', name), eb('name', '=', sql<string>`upper(${name})`)]))
      .where('joined', '>', after)
      .orderBy('id'),
  );

  it("each call runs with its own values, the query's constants kept, on a pool or in a transaction", async () => {
    const joined = new Date('2026-01-02T03:04:05.678Z');
    assert.deepEqual(await insert(db, 1, 'ada', joined), [{ id: 1, name: 'ada', team: 'core', joined }]);
    assert.deepEqual(await insert(db, 2, 'ADA', joined), [{ id: 2, name: 'ADA', team: 'core', joined }]);
    await db.transaction().execute(async (trx) => {
      assert.deepEqual(await insert(trx, 3, 'grace', joined), [{ id: 3, name: 'grace', team: 'core', joined }]);
    });
    assert.deepEqual(await byName(db, 'ada', new Date('2026-01-01')), [{ id: 1, name: 'ada' }, { id: 2, name: 'ADA' }]);
    assert.deepEqual(await byName(db, 'grace', new Date('2026-01-01')), [{ id: 3, name: 'grace' }]);
    assert.deepEqual(await byName(db, 'grace', new Date('2026-02-01')), []);
    assert.deepEqual(await byName(db, "x' or '1'='1", new Date('2000-01-01')), [], 'a value is a parameter, never SQL');
  });

  it('the query is built once, however many calls', async () => {
    let builds = 0;
    const nameOf = compiledOnce((d: Kysely<TestDB>, id: number) => {
      builds += 1;
      return d.selectFrom('compiled_query_test.people').select('name').where('id', '=', id);
    });
    assert.deepEqual(await nameOf(db, 1), [{ name: 'ada' }]);
    assert.deepEqual(await nameOf(db, 3), [{ name: 'grace' }]);
    assert.deepEqual(await nameOf(db, 4), []);
    assert.equal(builds, 1);
  });

  it('a parameter that does not reach the statement as a parameter fails the first call', async () => {
    const inlined = compiledOnce((d: Kysely<TestDB>, name: string) => d.selectFrom('compiled_query_test.people').select('id').where('name', '=', sql<string>`${sql.raw(String(name))}`));
    await assert.rejects(inlined(db, 'ada'), /parameter 0 is not a parameter/);
    const unused = compiledOnce((d: Kysely<TestDB>, _id: number) => d.selectFrom('compiled_query_test.people').select('id'));
    await assert.rejects(unused(db, 1), /parameter 0 is not a parameter/);
  });
});
