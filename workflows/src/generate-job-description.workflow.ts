import { proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, AI_CALL, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { JobDescriptionActivities } from './activities/job-description.js';
import type { JobDescriptionInput } from './ai/provider.js';

const { markTaskRunning } = proxyActivities<JobDescriptionActivities>(PLATFORM_CALL);
const { completeTask, failTask } = proxyActivities<JobDescriptionActivities>(RECORD_OUTCOME);
// 429 and 5xx are retried with backoff; a refused request (400/401…) fails the task at once.
const { writeJobDescription } = proxyActivities<JobDescriptionActivities>(AI_CALL);

/**
 * `jd:<taskId>`: queued → running → succeeded (with the result) or failed (with a task error),
 * also when marking it running gives up: the task never stays `queued`.
 */
export async function generateJobDescription(args: { taskId: string; organizationId: string; input: JobDescriptionInput }): Promise<string> {
  let result;
  try {
    await markTaskRunning(args);
    result = await writeJobDescription(args.input);
  } catch (err) {
    await failTask({ ...args, ...failureOf(err, 'ai_failed', 'The AI generation failed.') });
    return 'failed';
  }
  await completeTask({ ...args, result });
  return 'succeeded';
}
