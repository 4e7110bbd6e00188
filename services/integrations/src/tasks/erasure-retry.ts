import type { Client } from '@temporalio/client';
import type { Task, TaskRetry } from '@hireloop/contracts';
import type { Db } from '../db.js';

/** The erasure workflow's activities (workflows/src/erase-candidate.workflow.ts), as the task names its steps. */
const STEPS: Record<string, string> = { beginErasure: 'start', scrubRecruiting: 'recruiting', scrubIntegrations: 'integrations', eraseStoredResponses: 'gateway', finishErasure: 'finish' };
/** The codes the erasure activities give their failures (activities/erasure.ts): only then is the message ours to show. */
const OWN_CODE = /^[a-z][a-z_]{0,99}$/;
const DESCRIBE_DEADLINE_MS = 2_000;

interface PendingFailure {
  message?: string | null;
  applicationFailureInfo?: { type?: string | null } | null;
  timeoutFailureInfo?: unknown;
}

/** A failed attempt as a task shows it: our activities' codes and messages, never a library's text. */
function failureOf(failure: PendingFailure): TaskRetry['lastError'] {
  const type = failure.applicationFailureInfo?.type;
  if (type && OWN_CODE.test(type) && failure.message) return { code: type, message: failure.message.slice(0, 2000) };
  if (failure.timeoutFailureInfo) return { code: 'timeout', message: 'The step did not finish in time (its worker stopped or stalled); it is retried.' };
  return { code: 'step_failed', message: 'The step failed; it is retried.' };
}

/**
 * Whether a `queued` or `running` erasure task is retrying a step, read from its workflow's
 * pending activity (Temporal holds the retry state durably; integrations itself may be the
 * service that refused, so nothing is written). The first attempt's workflow is `erase:<candidate>`,
 * a later one's `erase:<candidate>:<task>`. Temporal unreachable or slow: null (the task still answers).
 */
export async function erasureRetry(db: Db, temporal: Client, organizationId: string, task: Task): Promise<TaskRetry | null> {
  if (task.kind !== 'candidate_erasure' || !task.candidateId || (task.status !== 'queued' && task.status !== 'running')) return null;
  const earlier = await db
    .selectFrom('integrations.tasks')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('kind', '=', 'candidate_erasure')
    .where('candidate_id', '=', task.candidateId)
    .where('id', '<>', task.id)
    .limit(1)
    .executeTakeFirst();
  const workflowId = earlier ? `erase:${task.candidateId}:${task.id}` : `erase:${task.candidateId}`;
  try {
    const description = await temporal.withDeadline(Date.now() + DESCRIBE_DEADLINE_MS, () => temporal.workflow.getHandle(workflowId).describe());
    for (const activity of description.raw.pendingActivities ?? []) {
      const attempt = activity.attempt ?? 1;
      if (attempt < 2 || !activity.lastFailure) continue;
      const name = activity.activityType?.name ?? '';
      return { step: STEPS[name] ?? 'step', attempt, lastError: failureOf(activity.lastFailure as PendingFailure) };
    }
    return null;
  } catch {
    return null;
  }
}
