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

/** A system error code (`ECONNREFUSED`, `ENOTFOUND`) somewhere in an error's causes: ours to name, unlike its message. */
function systemCodeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]{2,30}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * A thrown SDK error as an AiCallError. The messages are the platform's own: a status or a
 * system error code, never the provider's text (PRODUCT.md §3: messages that are not ours never
 * reach a client), which can quote the request or a part of the key. They reach API clients (an
 * evaluation's `error`), webhooks and workflow histories.
 */
export function classifyAiError(err: unknown): AiCallError {
  if (err instanceof AiCallError) return err;
  if (err instanceof OpenAI.APIUserAbortError || err instanceof OpenAI.APIConnectionTimeoutError || (err instanceof Error && err.name === 'AbortError')) {
    return new AiCallError('timeout', 'AI provider did not answer in time');
  }
  if (err instanceof OpenAI.APIError && err.status !== undefined) {
    if (err.status === 429 || err.status >= 500) return new AiCallError('unavailable', `AI provider answered ${err.status}`, err.status);
    return new AiCallError('rejected', `AI provider refused the request (${err.status}): check the provider's key, model and account.`, err.status);
  }
  const code = systemCodeOf(err);
  return new AiCallError('unavailable', code ? `AI provider unreachable (${code})` : 'AI provider unreachable');
}
