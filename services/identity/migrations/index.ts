import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_login_throttles.js';
import * as m0003 from './0003_audit_events.js';
import * as m0004 from './0004_audit_details.js';

/** Every migration of the identity schema, in order. */
export const migrations: Record<string, Migration> = {
  '0001_identity': m0001,
  '0002_login_throttles': m0002,
  '0003_audit_events': m0003,
  '0004_audit_details': m0004,
};
