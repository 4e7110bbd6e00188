import type { Recommendation } from '@hireloop/contracts';

// The published formula (PRODUCT.md §12, docs/api.md): recruiting computes the overall score and
// the recommendation from the competency scores; the model never does.

/** Thresholds on `overallScore`, highest first. */
export const RECOMMENDATION_THRESHOLDS: readonly (readonly [number, Recommendation])[] = [
  [80, 'strong_yes'],
  [65, 'yes'],
  [50, 'mixed'],
  [35, 'no'],
  [0, 'strong_no'],
];

export function recommendationFor(score: number): Recommendation {
  return RECOMMENDATION_THRESHOLDS.find(([min]) => score >= min)![1];
}

export interface OverallScore {
  overallScore: number | null;
  recommendation: Recommendation | null;
  /** Why there is no overall score; null when there is one. */
  reason: string | null;
}

/**
 * overallScore = round(100 × Σ wᵢ·(sᵢ−1)/4 / Σ wᵢ) over the scored competencies (halves round
 * up), in integers so no floating-point error moves a score across a threshold. With less than
 * half of the rubric's weight scored there is no overall score and no recommendation.
 */
export function overallScoreOf(competencies: { weight: number; score: number | null }[]): OverallScore {
  const totalWeight = competencies.reduce((sum, c) => sum + c.weight, 0);
  const scored = competencies.filter((c): c is { weight: number; score: number } => c.score !== null);
  const scoredWeight = scored.reduce((sum, c) => sum + c.weight, 0);
  if (totalWeight === 0 || 2 * scoredWeight < totalWeight) {
    const reason = `Only ${scoredWeight} of the rubric's weight of ${totalWeight} had verified evidence; an overall score needs at least half.`;
    return { overallScore: null, recommendation: null, reason };
  }
  const numerator = 100 * scored.reduce((sum, c) => sum + c.weight * (c.score - 1), 0);
  const denominator = 4 * scoredWeight;
  const overallScore = Math.floor((2 * numerator + denominator) / (2 * denominator));
  return { overallScore, recommendation: recommendationFor(overallScore), reason: null };
}
