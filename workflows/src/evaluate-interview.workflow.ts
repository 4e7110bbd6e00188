import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { EvaluationActivities } from './activities/evaluation.js';

const { loadEvaluationInput, saveEvaluation, saveEvaluationFailure } = proxyActivities<EvaluationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

// The AI call: a few attempts with backoff for 429/5xx; a refused request fails at once.
const { generateEvaluation } = proxyActivities<EvaluationActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 5, nonRetryableErrorTypes: ['ai_request_rejected'] },
});

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
