import { setTimeout as sleep } from 'node:timers/promises';
import { classifyAiError } from '@hireloop/ai';
import type { FollowUpSkipped } from '@hireloop/contracts';
import { findForbiddenTopic, type ForbiddenTopicMatch } from './forbidden-topics.js';
import { readsAsLanguage } from './follow-up-language.js';
import { MAX_FOLLOW_UP_CHARS, type FollowUpRequest } from './follow-up-prompt.js';
import type { FollowUpWriter } from './follow-up-writer.js';

/**
 * After an answer, with follow-ups left and budget remaining: ask `text`, ask nothing (the answer
 * is enough), or skip with the reason the turn records. `forbidden` names the matched list entry
 * (never the follow-up's text) for the log.
 */
export type FollowUpDecision =
  | { kind: 'ask'; text: string }
  | { kind: 'none' }
  | { kind: 'skip'; reason: FollowUpSkipped; forbidden?: ForbiddenTopicMatch };

/**
 * A follow-up as the candidate may see it, or null when the reply is not one short question:
 * one line, at most MAX_FOLLOW_UP_CHARS, a single question mark, at the end.
 */
export function asFollowUpQuestion(reply: string): string | null {
  const text = reply.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (text.length === 0 || text.length > MAX_FOLLOW_UP_CHARS) return null;
  const marks = text.match(/[?？]/g) ?? [];
  if (marks.length !== 1 || !/[?？]$/.test(text)) return null;
  return text;
}

/**
 * Decides the follow-up within `timeoutMs` (PRODUCT.md §12): the AI never blocks the candidate.
 * A timeout, a provider error, an invalid output (one that is not one question in the interview's
 * language among them) or a forbidden topic is a skip; the candidate
 * gets the next scripted question and never sees the AI's error or the dropped question.
 */
export async function decideFollowUp(writer: FollowUpWriter, request: FollowUpRequest, timeoutMs: number): Promise<FollowUpDecision> {
  const deadline = new AbortController();
  // The writer is given the signal; the race holds the deadline even for a writer that ignores it.
  const expired = sleep(timeoutMs, 'expired' as const, { signal: deadline.signal }).then(
    (v) => {
      deadline.abort();
      return v;
    },
    () => 'cancelled' as const,
  );
  try {
    const reply = await Promise.race([writer.write(request, deadline.signal), expired]);
    if (reply === 'expired' || reply === 'cancelled') return { kind: 'skip', reason: 'timeout' };
    if (!reply.ok) return { kind: 'skip', reason: 'invalid_output' };
    if (reply.value.followUp === null) return { kind: 'none' };
    const text = asFollowUpQuestion(reply.value.followUp);
    if (!text) return { kind: 'skip', reason: 'invalid_output' };
    const forbidden = findForbiddenTopic(text, request.language);
    if (forbidden) return { kind: 'skip', reason: 'forbidden_topic', forbidden };
    // Not in the interview's language: unread by the topic lists, and not the candidate's language.
    if (!readsAsLanguage(text, request.language)) return { kind: 'skip', reason: 'invalid_output' };
    return { kind: 'ask', text };
  } catch (err) {
    return { kind: 'skip', reason: classifyAiError(err).kind === 'timeout' ? 'timeout' : 'provider_error' };
  } finally {
    if (!deadline.signal.aborted) deadline.abort();
  }
}
