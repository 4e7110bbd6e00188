import { proxyActivities } from '@temporalio/workflow';
import { AI_CALL, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { EvaluationActivities } from './activities/evaluation.js';

const { saveEvaluationFailure } = proxyActivities<EvaluationActivities>(RECORD_OUTCOME);
// The AI call: a few attempts with backoff for 429/5xx; a refused request fails at once.
const { evaluateAndSave } = proxyActivities<EvaluationActivities>(AI_CALL);

/**
 * `evaluate:<interviewId>` (version 1) or `evaluate:<interviewId>:<version>` (a re-run): asks the
 * AI provider for the evaluation of one version and stores it, in one activity, so no transcript
 * or evaluation text sits in this history. Whatever gives up (loading the input, the AI,
 * storing), the version is stored as failed with a reason: it never stays `processing`.
 */
export async function evaluateInterview(args: { interviewId: string; organizationId: string; version?: number }): Promise<string> {
  try {
    await evaluateAndSave(args);
  } catch (err) {
    await saveEvaluationFailure({ ...args, ...failureOf(err, 'ai_failed', 'The AI evaluation failed.') });
    return 'failed';
  }
  return 'completed';
}
