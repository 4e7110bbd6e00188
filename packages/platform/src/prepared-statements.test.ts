import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, createPool, sql, type Kysely } from './db.js';
import { PREPARED_PER_CONNECTION } from './prepared-statements.js';
import { isTransientDatabaseError } from './database-errors.js';

/** Real Postgres (the test stack's database); each pool has one connection, so its prepared statements are visible to it. */
const url = process.env['DATABASE_URL']!;
const SCHEMA = 'prepared_statements_test';

async function preparedTexts(db: Kysely<object>): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(db);
  return rows.map((r) => r.statement);
}

describe('statements with parameters are prepared once per connection', () => {
  const db = createDb<object>(createPool({ url, applicationName: 'prepared-statements-test', max: 1 }));
  before(async () => {
    await sql`create schema if not exists ${sql.id(SCHEMA)}`.execute(db);
    await sql`drop table if exists ${sql.id(SCHEMA, 'people')}`.execute(db);
    await sql`create table ${sql.id(SCHEMA, 'people')} (id int primary key, name text not null)`.execute(db);
    await sql`insert into ${sql.id(SCHEMA, 'people')} values (1, 'Ada'), (2, 'Grace')`.execute(db);
  });
  after(async () => {
    await sql`drop schema if exists ${sql.id(SCHEMA)} cascade`.execute(db);
    await db.destroy();
  });

  it('a statement with parameters is prepared on its first call and reused after, with the same results', async () => {
    const read = (id: number) => sql<{ name: string }>`select name from ${sql.id(SCHEMA, 'people')} where id = ${id}`.execute(db);
    assert.deepEqual((await read(1)).rows, [{ name: 'Ada' }]);
    assert.deepEqual((await read(2)).rows, [{ name: 'Grace' }]);
    assert.deepEqual((await read(3)).rows, []);
    const texts = (await preparedTexts(db)).filter((t) => t.includes('"people" where id = $1'));
    assert.equal(texts.length, 1, 'one prepared statement for three calls');
  });

  it('a text without parameters runs unnamed, so a script of several commands still runs', async () => {
    await sql.raw(`select 1; select 2`).execute(db);
    assert.ok(!(await preparedTexts(db)).some((t) => t.includes('select 1; select 2')));
  });

  it('a transaction that fails on a prepared statement rolls back, and the statement works after', async () => {
    const insert = (id: number, name: string) => sql`insert into ${sql.id(SCHEMA, 'people')} (id, name) values (${id}, ${name})`;
    await assert.rejects(db.transaction().execute(async (trx) => {
      await insert(3, 'Barbara').execute(trx);
      await insert(3, 'again').execute(trx);
    }), /duplicate key/);
    await insert(3, 'Barbara').execute(db);
    const { rows } = await sql<{ name: string }>`select name from ${sql.id(SCHEMA, 'people')} where id = ${3}`.execute(db);
    assert.deepEqual(rows, [{ name: 'Barbara' }]);
  });

  it('a table that gained a column under a prepared `select *` fails that call once (503, retry), then the next runs on a fresh connection', async () => {
    const all = () => sql<Record<string, unknown>>`select * from ${sql.id(SCHEMA, 'people')} where id = ${1}`.execute(db);
    assert.deepEqual((await all()).rows, [{ id: 1, name: 'Ada' }]);
    await sql`alter table ${sql.id(SCHEMA, 'people')} add column team text`.execute(db);
    // Transient: the platform answers it 503, and the retry runs on a fresh connection.
    await assert.rejects(all(), (err: Error & { code?: string }) => err.code === '0A000' && isTransientDatabaseError(err));
    assert.deepEqual((await all()).rows, [{ id: 1, name: 'Ada', team: null }]);
  });

  // Last: it fills the connection's names.
  it(`at most ${PREPARED_PER_CONNECTION} texts are named on a connection; more run unnamed and still answer`, async () => {
    for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) {
      const { rows } = await sql<{ n: number }>`select ${i}::int + ${sql.raw(String(i))} as n`.execute(db);
      assert.equal(rows[0]!.n, 2 * i);
    }
    assert.equal((await preparedTexts(db)).length, PREPARED_PER_CONNECTION);
  });
});

describe('preparedStatements: false', () => {
  it('runs every statement unnamed', async () => {
    const db = createDb<object>(createPool({ url, applicationName: 'prepared-statements-off-test', max: 1, preparedStatements: false }));
    try {
      await sql`select ${1}::int as one`.execute(db);
      assert.deepEqual(await preparedTexts(db), []);
    } finally {
      await db.destroy();
    }
  });
});
