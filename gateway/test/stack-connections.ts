import { after, before } from 'node:test';
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { testEnv } from '@hireloop/devstack/testing';

/**
 * A Postgres client and a Temporal client on the test stack, opened before the file's tests and
 * closed after them, for tests that assert on rows and workflow histories directly.
 */
export function stackConnections(): { readonly db: pg.Client; readonly temporal: Client } {
  let db: pg.Client | undefined;
  let connection: Connection | undefined;
  let temporal: Client | undefined;
  before(async () => {
    db = new pg.Client({ connectionString: testEnv().databaseUrl });
    await db.connect();
    connection = await Connection.connect({ address: testEnv().temporalAddress });
    temporal = new Client({ connection });
  });
  after(async () => {
    await db?.end();
    await connection?.close();
  });
  return {
    get db() {
      if (!db) throw new Error('stackConnections: used outside a test');
      return db;
    },
    get temporal() {
      if (!temporal) throw new Error('stackConnections: used outside a test');
      return temporal;
    },
  };
}
