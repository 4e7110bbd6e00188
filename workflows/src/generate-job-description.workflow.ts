import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, AI_CALL } from './activity-options.js';
import type { JobDescriptionActivities } from './activities/job-description.js';
import type { JobDescriptionInput } from './ai/provider.js';

const { markTaskRunning, completeTask, failTask } = proxyActivities<JobDescriptionActivities>(PLATFORM_CALL);
// 429 and 5xx are retried with backoff; a refused request (400/401…) fails the task at once.
const { writeJobDescription } = proxyActivities<JobDescriptionActivities>(AI_CALL);

/** `jd:<taskId>`: queued → running → succeeded (with the result) or failed (with a task error). */
export async function generateJobDescription(args: { taskId: string; organizationId: string; input: JobDescriptionInput }): Promise<string> {
  await markTaskRunning(args);
  try {
    const result = await writeJobDescription(args.input);
    await completeTask({ ...args, result });
    return 'succeeded';
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const code = cause instanceof ApplicationFailure && cause.type ? cause.type : 'ai_failed';
    await failTask({ ...args, code, message: cause instanceof Error ? cause.message : 'The AI generation failed.' });
    return 'failed';
  }
}
