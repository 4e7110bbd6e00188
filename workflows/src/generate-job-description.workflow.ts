import { proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, AI_CALL, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { JobDescriptionActivities } from './activities/job-description.js';
import type { JobDescriptionInput } from './ai/provider.js';

const { markTaskRunning } = proxyActivities<JobDescriptionActivities>(PLATFORM_CALL);
const { completeTask, failTask } = proxyActivities<JobDescriptionActivities>(RECORD_OUTCOME);
// 429 and 5xx are retried with backoff; a refused request (400/401…) fails the task at once.
const { writeAndSaveJobDescription, writeJobDescription } = proxyActivities<JobDescriptionActivities>(AI_CALL);

/**
 * `jd:<taskId>`: queued → running → succeeded (with the result) or failed (with a task error),
 * also when marking it running gives up: the task never stays `queued`. It takes ids only: one
 * activity reads the request kept with the task, asks the AI and stores the result, so neither
 * the request nor the generated text sits in this history.
 *
 * `input` is only in workflows started before it took ids only (their start may also still wait
 * in integrations' workflow-start outbox). They keep the steps they were started with, so their
 * histories replay and they complete: the branch is on the workflow's own argument, fixed for the
 * execution, so no `patched()` marker is needed. Remove it once no such workflow can remain.
 */
export async function generateJobDescription(args: { taskId: string; organizationId: string; input?: JobDescriptionInput }): Promise<string> {
  const ids = { taskId: args.taskId, organizationId: args.organizationId };
  let result;
  try {
    await markTaskRunning(ids);
    if (!args.input) {
      await writeAndSaveJobDescription(ids);
      return 'succeeded';
    }
    result = await writeJobDescription(args.input);
  } catch (err) {
    await failTask({ ...ids, ...failureOf(err, 'ai_failed', 'The AI generation failed.') });
    return 'failed';
  }
  await completeTask({ ...ids, result });
  return 'succeeded';
}
