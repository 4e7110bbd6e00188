import { firstCharacters, type Competency, type CompetencyScore, type Evidence, type ModelEvaluation, type Recommendation } from '@hireloop/contracts';
import { overallScoreOf } from './overall-score.js';
import { quoteFinder } from './quotes.js';

const MAX_EVIDENCE = 3;
/** The longest quote kept, in code points (PRODUCT.md §12; `start` and `end` count them too). */
const MAX_QUOTE_CHARACTERS = 300;

export interface Scorecard {
  competencyScores: CompetencyScore[];
  droppedQuotes: number;
  overallScore: number | null;
  recommendation: Recommendation | null;
  overallScoreReason: string | null;
  /** The v1 fields, written by our code from the scores (the model gives none of them). */
  summary: string;
  strengths: string[];
  concerns: string[];
  competencies: { name: string; score: number; rationale: string }[];
}

/**
 * What the model (or the offline provider) said, checked against the transcript (PRODUCT.md §12):
 * one entry per rubric competency in rubric order; a quote is kept only when it occurs in the
 * candidate turn it names (at most 3 per competency, 300 characters each); a competency left
 * without a kept quote has no score, and one the model did not score keeps no quote; every quote
 * refused (under a key the rubric does not have too) is counted in `droppedQuotes`. A competency
 * the model left out, or a key the rubric does not have, changes nothing else.
 */
export function buildScorecard(rubric: Competency[], output: ModelEvaluation, candidateTurns: { id: string; text: string }[]): Scorecard {
  // Each turn is folded once, however many quotes name it.
  const turns = new Map(candidateTurns.map((t) => [t.id, quoteFinder(t.text)]));
  // Every quote the model gave counts: those under a key the rubric lacks, or a key given twice, are refused too.
  const offered = output.competencies.reduce((n, o) => n + o.quotes.length, 0);
  let kept = 0;
  const competencyScores = rubric.map((c): CompetencyScore => {
    const said = output.competencies.find((o) => o.key === c.key);
    const evidence: Evidence[] = [];
    // Evidence belongs to a score: quotes for a competency the model did not score are refused.
    for (const q of said?.score != null ? said.quotes : []) {
      const find = turns.get(q.turnId);
      const verified = find ? find(q.quote) : null;
      if (!verified || verified.end - verified.start > MAX_QUOTE_CHARACTERS || evidence.length >= MAX_EVIDENCE) continue;
      if (evidence.some((e) => e.turnId === q.turnId && e.start === verified.start && e.end === verified.end)) continue;
      evidence.push({ turnId: q.turnId, ...verified });
      kept++;
    }
    const score = said?.score != null && evidence.length > 0 ? said.score : null;
    return { key: c.key, name: c.name, weight: c.weight, score, rationale: rationaleOf(said, evidence, score), evidence, insufficientEvidence: score === null };
  });
  const overall = overallScoreOf(competencyScores);
  const scored = competencyScores.filter((c) => c.score !== null);
  return {
    competencyScores,
    droppedQuotes: offered - kept,
    overallScore: overall.overallScore,
    recommendation: overall.recommendation,
    overallScoreReason: overall.reason,
    summary: summaryOf(competencyScores, overall.overallScore, overall.reason),
    strengths: scored.filter((c) => c.score! >= 4).map((c) => `${c.name}: ${c.score}/5`),
    concerns: competencyScores.filter((c) => c.score === null || c.score <= 2).map((c) => (c.score === null ? `${c.name}: insufficient evidence` : `${c.name}: ${c.score}/5`)),
    competencies: scored.map((c) => ({ name: c.name, score: c.score!, rationale: c.rationale })),
  };
}

function rationaleOf(said: ModelEvaluation['competencies'][number] | undefined, evidence: Evidence[], score: number | null): string {
  if (!said) return 'The evaluation said nothing about this competency; not scored.';
  if (said.score !== null && score === null) return 'No quote given for this competency was found in the transcript; not scored.';
  return firstCharacters(said.rationale, 2000) || (evidence.length ? 'See the quotes.' : 'No evidence in the transcript.');
}

function summaryOf(scores: CompetencyScore[], overallScore: number | null, reason: string | null): string {
  const scored = scores.filter((c) => c.score !== null).length;
  const head = `${scored} of ${scores.length} competencies scored with verified evidence.`;
  return overallScore === null ? `${head} ${reason}` : `${head} Overall ${overallScore} of 100 by the published formula.`;
}
