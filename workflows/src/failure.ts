import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** Our error codes (`not_found`, `ai_invalid_output`…); a library's error arrives typed with its class name. */
const OUR_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The code and message a workflow records when an activity failed for good. Our services' refusals
 * and the AI provider's typed failures keep their code and message; anything else (a library's
 * error, which Temporal types with its class name, such as `TRPCClientError` carrying a database's
 * message) is recorded with the fallback code and a plain message, never its text.
 */
export function failureOf(err: unknown, fallbackCode: string, fallbackMessage: string): { code: string; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure && cause.type && OUR_CODE.test(cause.type)) return { code: cause.type, message: cause.message };
  return { code: fallbackCode, message: fallbackMessage };
}
