import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import { PLATFORM_CALL, AI_CALL } from './activity-options.js';
import type { EvaluationActivities } from './activities/evaluation.js';

const { loadEvaluationInput, saveEvaluation, saveEvaluationFailure } = proxyActivities<EvaluationActivities>(PLATFORM_CALL);

// The AI call: a few attempts with backoff for 429/5xx; a refused request fails at once.
const { generateEvaluation } = proxyActivities<EvaluationActivities>(AI_CALL);

/**
 * `evaluate:<interviewId>`: asks the AI provider for the structured evaluation of a completed
 * interview and stores it; when the AI gives up, the evaluation is stored as failed with a reason.
 */
export async function evaluateInterview(args: { interviewId: string; organizationId: string }): Promise<string> {
  const input = await loadEvaluationInput(args);
  let generated;
  try {
    generated = await generateEvaluation(input);
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const code = cause instanceof ApplicationFailure && cause.type ? cause.type : 'ai_failed';
    await saveEvaluationFailure({ ...args, code, message: cause instanceof Error ? cause.message : 'The AI evaluation failed.' });
    return 'failed';
  }
  await saveEvaluation({ ...args, result: generated.result, model: generated.model });
  return 'completed';
}
