import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { overallScoreOf, recommendationFor } from './overall-score.js';

/** The formula of PRODUCT.md §12 written out in exact rational arithmetic, as the reference. */
function reference(competencies: { weight: number; score: number | null }[]) {
  const total = competencies.reduce((s, c) => s + c.weight, 0);
  const scored = competencies.filter((c) => c.score !== null) as { weight: number; score: number }[];
  const w = scored.reduce((s, c) => s + c.weight, 0);
  if (w * 2 < total) return { overallScore: null, recommendation: null };
  // round(100 · Σ w(s−1)/4 / Σ w), halves up: compare 2·100·Σw(s−1) with (2k+1)·4·Σw.
  const num = 100 * scored.reduce((s, c) => s + c.weight * (c.score - 1), 0);
  const den = 4 * w;
  let score = Math.floor(num / den);
  if (2 * (num - score * den) >= den) score += 1;
  const recommendation = score >= 80 ? 'strong_yes' : score >= 65 ? 'yes' : score >= 50 ? 'mixed' : score >= 35 ? 'no' : 'strong_no';
  return { overallScore: score, recommendation };
}

const competency = fc.record({ weight: fc.integer({ min: 1, max: 10 }), score: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) });

describe('overall score and recommendation (PRODUCT.md §12 formula)', () => {
  it('equal the formula for arbitrary scores and weights, the under-half case included', () => {
    fc.assert(
      fc.property(fc.array(competency, { minLength: 1, maxLength: 8 }), (competencies) => {
        const got = overallScoreOf(competencies);
        const want = reference(competencies);
        assert.equal(got.overallScore, want.overallScore);
        assert.equal(got.recommendation, want.recommendation);
        assert.equal(got.reason === null, want.overallScore !== null, 'a reason exactly when there is no score');
        if (got.overallScore !== null) assert.ok(got.overallScore >= 0 && got.overallScore <= 100);
      }),
      { numRuns: 2000 },
    );
  });

  it('less than half of the weight scored: no score, no recommendation, and the reason says so', () => {
    const got = overallScoreOf([{ weight: 3, score: 5 }, { weight: 4, score: null }]);
    assert.deepEqual([got.overallScore, got.recommendation], [null, null]);
    assert.match(got.reason!, /3 of the rubric's weight of 7/);
  });

  it('exactly half of the weight scored is enough', () => {
    assert.equal(overallScoreOf([{ weight: 2, score: 3 }, { weight: 2, score: null }]).overallScore, 50);
  });

  it('thresholds: 80 strong_yes, 65 yes, 50 mixed, 35 no, below strong_no', () => {
    assert.deepEqual([80, 79, 65, 64, 50, 49, 35, 34, 0].map(recommendationFor), ['strong_yes', 'yes', 'yes', 'mixed', 'mixed', 'no', 'no', 'strong_no', 'strong_no']);
  });

  it('halves round up: weights 1 and 1 with scores 2 and 1 give 12.5 → 13', () => {
    assert.equal(overallScoreOf([{ weight: 1, score: 2 }, { weight: 1, score: 1 }]).overallScore, 13);
  });
});
