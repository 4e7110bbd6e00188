import type { ModelEvaluation } from '@hireloop/contracts';
import type { RubricEvaluationInput } from './provider.js';

// The offline provider's rubric evaluation (PRODUCT.md §12): deterministic (the same transcript
// gives the same scores and quotes), useful without any model, and checked by recruiting exactly
// as a model's output is. For each competency it
// - quotes the answer sentences that share the most words with the competency (its name,
//   description and anchors), from the answers to the questions about it (all answers when no
//   question names it); a sentence too long for a quote is quoted in runs of its words;
// - scores by the anchor whose words those sentences match best, averaged with how much
//   evidence there is;
// - gives no score when no sentence shares a word with the competency.

const STOP_WORDS = new Set(
  ('a an and are as at be but by can did do does for from had has have how i if in into is it its me my no not of on or our so ' +
    'some than that the their them then there these they this to us was we were what when which who will with would you your ' +
    'about any also been being more most only other over such very').split(' '),
);

/** Lower-cased word stems (the first 6 letters) of the words that carry meaning. */
function stems(text: string): string[] {
  return (text.toLowerCase().normalize('NFC').match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? [])
    .filter((w) => w.length > 2 && !STOP_WORDS.has(w))
    .map((w) => w.slice(0, 6));
}

/** Sentences of an answer, as they stand in it (so that a quote of one is verbatim). */
function sentences(text: string): string[] {
  return (text.match(/[^.!?\n]+[.!?]*/gu) ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
}

/**
 * What of a sentence can be quoted (at most MAX_QUOTE_CHARS, counted as the scorecard's check
 * counts a quote: UTF-16 units): the sentence, or, for a longer one, its runs of whole words that
 * fit, one after another, each as it stands in the sentence. A word longer than a quote is cut
 * between code points. A long run-on answer is evidence too.
 */
function passages(sentence: string): string[] {
  if (sentence.length <= MAX_QUOTE_CHARS) return [sentence];
  const out: string[] = [];
  let run = '';
  for (const word of sentence.split(/(\s+)/u)) {
    if (run.length + word.length > MAX_QUOTE_CHARS && run.trim()) {
      out.push(run.trim());
      run = '';
    }
    if (!run && /^\s*$/u.test(word)) continue;
    run += word.length > MAX_QUOTE_CHARS ? fitted(word) : word;
  }
  if (run.trim()) out.push(run.trim());
  return out;
}

/** The longest start of `word` within MAX_QUOTE_CHARS UTF-16 units that does not split a code point. */
function fitted(word: string): string {
  let out = '';
  for (const c of word) {
    if (out.length + c.length > MAX_QUOTE_CHARS) break;
    out += c;
  }
  return out;
}

function overlap(words: string[], vocabulary: Set<string>): number {
  return new Set(words.filter((w) => vocabulary.has(w))).size;
}

const MAX_QUOTES = 3;
const MAX_QUOTE_CHARS = 300;
const WORDS_FOR_FULL_DETAIL = 80;

export function offlineRubricEvaluation(input: RubricEvaluationInput): ModelEvaluation {
  const answers = input.turns.filter((t) => t.role === 'candidate');
  return {
    competencies: input.rubric.competencies.map((c) => {
      const vocabulary = new Set(stems([c.name, c.description ?? '', ...c.levels].join(' ')));
      const about = new Set(input.questions.filter((q) => q.competencies.includes(c.key)).map((q) => q.id));
      const pool = about.size ? answers.filter((a) => about.has(a.questionId)) : answers;
      const candidates = pool
        .flatMap((turn) => sentences(turn.text).flatMap(passages).map((sentence, order) => ({ turn, sentence, order, hits: overlap(stems(sentence), vocabulary) })))
        .filter((s) => s.hits > 0)
        .sort((a, b) => b.hits - a.hits || a.turn.id.localeCompare(b.turn.id) || a.order - b.order)
        .slice(0, MAX_QUOTES);
      if (candidates.length === 0) {
        return { key: c.key, score: null, rationale: `Offline scoring: no answer sentence shares a word with "${c.name}" or its anchors.`, quotes: [] };
      }
      const evidenceWords = stems(pool.map((t) => t.text).join(' '));
      const anchorLevel = bestAnchor(evidenceWords, c.levels);
      const detail = Math.min(1, evidenceWords.length / WORDS_FOR_FULL_DETAIL);
      const score = Math.max(1, Math.min(5, Math.round((anchorLevel + 1 + 4 * detail) / 2)));
      return {
        key: c.key,
        score,
        // The score is a mean of two parts, so the rationale names both: "closest to anchor 2" beside a 3 read as a contradiction.
        rationale: `Offline scoring: ${score} of 5, the mean of the closest anchor, ${anchorLevel} ("${c.levels[anchorLevel - 1]}"), and the answers' detail, ${(1 + 4 * detail).toFixed(1)} of 5 (${evidenceWords.length} meaningful words; ${WORDS_FOR_FULL_DETAIL} or more count as full detail).`,
        quotes: candidates.map((s) => ({ turnId: s.turn.id, quote: s.sentence })),
      };
    }),
  };
}

/** The anchor (1–5) sharing the largest share of its words with the evidence; ties go to the lower level. */
function bestAnchor(evidence: string[], levels: string[]): number {
  const words = new Set(evidence);
  let best = 1;
  let bestShare = -1;
  levels.forEach((level, i) => {
    const anchor = stems(level);
    const share = anchor.length ? overlap(anchor, words) / new Set(anchor).size : 0;
    if (share > bestShare) {
      best = i + 1;
      bestShare = share;
    }
  });
  return best;
}
