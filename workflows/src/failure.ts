import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/**
 * The code and message a workflow records when an activity failed for good. Our services' refusals
 * and the AI provider's typed failures keep their code and message; anything else (a library's
 * error) is recorded with the fallback code and a plain message, never its text.
 */
export function failureOf(err: unknown, fallbackCode: string, fallbackMessage: string): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type) return { code: cause.type, message: cause.message };
  return { code: fallbackCode, message: fallbackMessage };
}
