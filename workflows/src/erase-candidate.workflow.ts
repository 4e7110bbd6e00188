import { proxyActivities } from '@temporalio/workflow';
import { ERASURE_STEP, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { ErasureActivities } from './activities/erasure.js';
import type { JobDescriptionActivities } from './activities/job-description.js';

// Every step is idempotent and must happen: retried with back-off, without an attempt limit, while
// its service is down or busy. The first step is retried even when refused (its task must not stay
// `queued`); a later step refused for good (or failing for good) fails the task with the reason.
// GET /tasks/{id} shows a step being retried (integrations' erasure-retry.ts).
const { beginErasure, scrubRecruiting, scrubIntegrations, eraseStoredResponses, finishErasure } = proxyActivities<ErasureActivities>(ERASURE_STEP);
const { failTask } = proxyActivities<JobDescriptionActivities>(RECORD_OUTCOME);

/**
 * `erase:<candidateId>` (PRODUCT.md §7), queued by recruiting in the transaction that made the
 * candidate 404: the `candidate_erasure` task runs, each service scrubs its copies of the person
 * (recruiting first; the others page through the person's interview and enrollment ids, which
 * recruiting keeps), and the task succeeds with `candidate.erased`. Ids and counts only, in and
 * out. The steps are those of the earlier version (which passed the ids between them), so its
 * histories replay.
 */
export async function eraseCandidate(args: { organizationId: string; candidateId: string }): Promise<string> {
  const { taskId } = await beginErasure(args);
  try {
    await scrubRecruiting(args);
    await scrubIntegrations(args);
    await eraseStoredResponses(args);
    await finishErasure(args);
  } catch (err) {
    await failTask({ organizationId: args.organizationId, taskId, ...failureOf(err, 'erasure_failed', 'The erasure failed.') });
    return 'failed';
  }
  return 'succeeded';
}
