import type { Migration } from 'kysely/migration';
import { outboxTableSql } from '@hireloop/platform';
import * as m0001 from './0001_recruiting.js';

/** Every migration of the recruiting schema, in order. */
export const migrations: Record<string, Migration> = {
  '0001_recruiting': m0001,
  '0002_outbox': { up: async (db) => void (await outboxTableSql('recruiting').execute(db)) },
};
