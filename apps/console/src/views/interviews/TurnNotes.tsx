// What the transcript says about a turn besides its words (PRODUCT.md §12): why a follow-up was
// not asked after an answer, and the answer's integrity signals. Signals are shown to reviewers
// as signals: metadata about the session, never a score.
import type { FollowUpSkipped, TurnSignals } from '@hireloop/contracts';

const SKIPPED: Record<FollowUpSkipped, string> = {
  timeout: 'the AI did not answer in time',
  provider_error: 'the AI provider failed',
  invalid_output: 'the AI did not write one short question',
  forbidden_topic: 'the AI\'s question touched a protected topic and was dropped',
  budget: 'the time budget was spent',
};

/** "No follow-up: <why>" after an answer whose follow-up was considered and not asked. */
export function SkippedNote({ reason }: { reason: FollowUpSkipped }) {
  return <span className="skipped" title={reason}>no follow-up: {SKIPPED[reason]}</span>;
}

/** The integrity signals of an answer, in words. */
export function IntegritySignals({ signals }: { signals: TurnSignals }) {
  const pasted = signals.paste ?? [];
  const parts = [
    pasted.length ? `pasted ${pasted.length}× (${pasted.map((p) => p.characters).join(', ')} characters)` : 'nothing pasted',
    signals.focusLost ? `left the page ${signals.focusLost.count}× (${signals.focusLost.seconds} s)` : null,
    signals.typingSeconds !== undefined ? `${signals.typingSeconds} s of typing` : null,
  ].filter(Boolean);
  return <p className="hint signals">Signals, not scored: {parts.join(' · ')}</p>;
}
