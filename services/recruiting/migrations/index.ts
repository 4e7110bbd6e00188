import type { Migration } from 'kysely/migration';
import * as m0001 from './0001_recruiting.js';
import * as m0002 from './0002_outbox.js';
import * as m0003 from './0003_interviews_flows.js';
import * as m0004 from './0004_workflow_outbox.js';
import * as m0005 from './0005_ats.js';
import * as m0006 from './0006_invite_token_sealed.js';
import * as m0007 from './0007_relay_leases.js';
import * as m0008 from './0008_sync_order.js';
import * as m0009 from './0009_evaluation_review.js';
import * as m0010 from './0010_interview_consent.js';
import * as m0011 from './0011_candidate_search.js';
import * as m0012 from './0012_enrollment_moves.js';
import * as m0013 from './0013_candidate_enrollments.js';
import * as m0014 from './0014_candidate_erasure.js';
import * as m0015 from './0015_workflow_request_id.js';
import * as m0016 from './0016_audit_events.js';
import * as m0017 from './0017_idempotency_records.js';
import * as m0018 from './0018_interviewer_rubric.js';
import * as m0019 from './0019_interview_conversation.js';
import * as m0020 from './0020_idempotency_fingerprints.js';
import * as m0021 from './0021_audit_details.js';
import * as m0022 from './0022_ats_sync_marks.js';
import * as m0023 from './0023_ats_sync_marks_unindexed.js';

/** Every migration of the recruiting schema, in order. */
export const migrations: Record<string, Migration> = {
  '0001_recruiting': m0001,
  '0002_outbox': m0002,
  '0003_interviews_flows': m0003,
  '0004_workflow_outbox': m0004,
  '0005_ats': m0005,
  '0006_invite_token_sealed': m0006,
  '0007_relay_leases': m0007,
  '0008_sync_order': m0008,
  '0009_evaluation_review': m0009,
  '0010_interview_consent': m0010,
  '0011_candidate_search': m0011,
  '0012_enrollment_moves': m0012,
  '0013_candidate_enrollments': m0013,
  '0014_candidate_erasure': m0014,
  '0015_workflow_request_id': m0015,
  '0016_audit_events': m0016,
  '0017_idempotency_records': m0017,
  '0018_interviewer_rubric': m0018,
  '0019_interview_conversation': m0019,
  '0020_idempotency_fingerprints': m0020,
  '0021_audit_details': m0021,
  '0022_ats_sync_marks': m0022,
  '0023_ats_sync_marks_unindexed': m0023,
};
