import { proxyActivities } from '@temporalio/workflow';
import { RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { ErasureActivities } from './activities/erasure.js';
import type { GatewayRetentionActivities } from './activities/gateway-retention.js';
import type { JobDescriptionActivities } from './activities/job-description.js';

// Every step is idempotent and must happen: retried until its service takes it (a service that is
// down delays the erasure, never skips a step); a refusal fails the task.
const { beginErasure, scrubRecruiting, scrubIntegrations, finishErasure } = proxyActivities<ErasureActivities>(RECORD_OUTCOME);
const { eraseStoredResponses } = proxyActivities<GatewayRetentionActivities>(RECORD_OUTCOME);
const { failTask } = proxyActivities<JobDescriptionActivities>(RECORD_OUTCOME);

/**
 * `erase:<candidateId>` (PRODUCT.md §7), queued by recruiting in the transaction that made the
 * candidate 404: the `candidate_erasure` task runs, each service scrubs its copies of the person
 * (recruiting first: it names the interviews and enrollments the others look for), and the task
 * succeeds with `candidate.erased`. Ids only, in and out.
 */
export async function eraseCandidate(args: { organizationId: string; candidateId: string }): Promise<string> {
  const { taskId } = await beginErasure(args);
  try {
    const recruiting = await scrubRecruiting(args);
    const relatedIds = [...recruiting.interviewIds, ...recruiting.enrollmentIds];
    await scrubIntegrations({ ...args, relatedIds });
    await eraseStoredResponses({ ids: [args.candidateId, ...relatedIds] });
    await finishErasure(args);
  } catch (err) {
    await failTask({ organizationId: args.organizationId, taskId, ...failureOf(err, 'erasure_failed', 'The erasure failed.') });
    return 'failed';
  }
  return 'succeeded';
}
