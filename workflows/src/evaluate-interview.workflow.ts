import { proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, AI_CALL, RECORD_OUTCOME } from './activity-options.js';
import { failureOf } from './failure.js';
import type { EvaluationActivities } from './activities/evaluation.js';

const { loadEvaluationInput } = proxyActivities<EvaluationActivities>(PLATFORM_CALL);
const { saveEvaluation, saveEvaluationFailure } = proxyActivities<EvaluationActivities>(RECORD_OUTCOME);

// The AI call: a few attempts with backoff for 429/5xx; a refused request fails at once.
const { generateEvaluation } = proxyActivities<EvaluationActivities>(AI_CALL);

/**
 * `evaluate:<interviewId>`: asks the AI provider for the structured evaluation of a completed
 * interview and stores it. Whatever step gives up (loading the input or the AI), the evaluation
 * is stored as failed with a reason: it never stays `processing`.
 */
export async function evaluateInterview(args: { interviewId: string; organizationId: string }): Promise<string> {
  let generated;
  try {
    const input = await loadEvaluationInput(args);
    generated = await generateEvaluation(input);
  } catch (err) {
    await saveEvaluationFailure({ ...args, ...failureOf(err, 'ai_failed', 'The AI evaluation failed.') });
    return 'failed';
  }
  await saveEvaluation({ ...args, result: generated.result, model: generated.model });
  return 'completed';
}
