import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_idempotency.js';
import * as m0002 from './0002_idempotency_subjects.js';
import * as m0003 from './0003_idempotency_voided.js';
import * as m0004 from './0004_erased_subjects.js';

export const migrations: Record<string, Migration> = {
  '0001_idempotency': m0001,
  '0002_idempotency_subjects': m0002,
  '0003_idempotency_voided': m0003,
  '0004_erased_subjects': m0004,
};
