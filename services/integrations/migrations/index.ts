import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_integrations.js';
import * as m0002 from './0002_outbox.js';
import * as m0003 from './0003_workflow_outbox.js';
import * as m0004 from './0004_relay_leases.js';
import * as m0005 from './0005_deliveries.js';
import * as m0006 from './0006_erasure_tasks.js';
import * as m0007 from './0007_workflow_request_id.js';
import * as m0008 from './0008_audit_events.js';
import * as m0009 from './0009_idempotency_records.js';
import * as m0010 from './0010_erasure_retries.js';
import * as m0011 from './0011_erasure_tombstones.js';
import * as m0012 from './0012_erased_ids_created_at.js';
import * as m0013 from './0013_endpoint_waiters.js';
import * as m0014 from './0014_endpoint_retry_loops.js';
import * as m0015 from './0015_pending_endpoints.js';
import * as m0016 from './0016_attempt_excerpts_by_event.js';
import * as m0017 from './0017_deliveries_due_replaced.js';
import * as m0018 from './0018_deliveries_without_foreign_keys.js';
import * as m0019 from './0019_idempotency_fingerprints.js';
import * as m0020 from './0020_audit_details.js';
import * as m0021 from './0021_deferred_fan_out.js';

/** Every migration of the integrations schema, in order. */
export const migrations: Record<string, Migration> = {
  '0001_integrations': m0001,
  '0002_outbox': m0002,
  '0003_workflow_outbox': m0003,
  '0004_relay_leases': m0004,
  '0005_deliveries': m0005,
  '0006_erasure_tasks': m0006,
  '0007_workflow_request_id': m0007,
  '0008_audit_events': m0008,
  '0009_idempotency_records': m0009,
  '0010_erasure_retries': m0010,
  '0011_erasure_tombstones': m0011,
  '0012_erased_ids_created_at': m0012,
  '0013_endpoint_waiters': m0013,
  '0014_endpoint_retry_loops': m0014,
  '0015_pending_endpoints': m0015,
  '0016_attempt_excerpts_by_event': m0016,
  '0017_deliveries_due_replaced': m0017,
  '0018_deliveries_without_foreign_keys': m0018,
  '0019_idempotency_fingerprints': m0019,
  '0020_audit_details': m0020,
  '0021_deferred_fan_out': m0021,
};
