import OpenAI from 'openai';

/**
 * Why a call to the AI provider failed, in the platform's words (each caller maps it: the worker
 * onto Temporal's retry policy, the interviewer onto a skipped follow-up):
 * - `timeout`: the caller's deadline passed, or the SDK's own timeout;
 * - `unavailable`: a rate limit, an outage or no connection (worth trying again later);
 * - `rejected`: the provider refused the request (a bad key, a bad request): trying again will not help.
 */
export type AiFailureKind = 'timeout' | 'unavailable' | 'rejected';

export class AiCallError extends Error {
  constructor(
    readonly kind: AiFailureKind,
    message: string,
    /** The provider's HTTP status, when it answered one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AiCallError';
  }
}

/** A thrown SDK error as an AiCallError; the messages name statuses, never a prompt or a key. */
export function classifyAiError(err: unknown): AiCallError {
  if (err instanceof AiCallError) return err;
  if (err instanceof OpenAI.APIUserAbortError || err instanceof OpenAI.APIConnectionTimeoutError || (err instanceof Error && err.name === 'AbortError')) {
    return new AiCallError('timeout', 'AI provider did not answer in time');
  }
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    if (err.status === 429 || err.status >= 500) return new AiCallError('unavailable', `AI provider answered ${err.status}`, err.status);
    return new AiCallError('rejected', `AI provider refused the request (${err.status}): ${err.message.slice(0, 300)}`, err.status);
  }
  return new AiCallError('unavailable', `AI provider unreachable: ${(err as Error).message}`);
}
