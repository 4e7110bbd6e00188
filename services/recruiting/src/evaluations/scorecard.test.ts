import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildScorecard } from './scorecard.js';

const levels = ['one', 'two', 'three', 'four', 'five'];
const rubric = [
  { key: 'communication', name: 'Communication', description: null, weight: 2, levels },
  { key: 'ownership', name: 'Ownership', description: null, weight: 1, levels },
  { key: 'craft', name: 'Craft', description: null, weight: 1, levels },
];
const turns = [{ id: 'turn_aaaaaaaaaaaa1', text: 'I explained the plan to the team.  Then I owned the rollout.' }];

describe('the scorecard of a model evaluation', () => {
  it('keeps verified quotes, drops fabricated ones, and leaves a competency without evidence unscored', () => {
    const card = buildScorecard(rubric, {
      competencies: [
        { key: 'communication', score: 4, rationale: 'Clear.', quotes: [{ turnId: 'turn_aaaaaaaaaaaa1', quote: 'I explained the plan to the team.' }] },
        { key: 'ownership', score: 5, rationale: 'Owns it.', quotes: [{ turnId: 'turn_aaaaaaaaaaaa1', quote: 'I single-handedly saved the company.' }] },
        { key: 'unknown', score: 5, rationale: 'Not in the rubric.', quotes: [] },
      ],
    }, turns);
    assert.deepEqual(card.competencyScores.map((c) => [c.key, c.score, c.insufficientEvidence]), [
      ['communication', 4, false],
      ['ownership', null, true],
      ['craft', null, true],
    ]);
    assert.equal(card.droppedQuotes, 1);
    assert.deepEqual(card.competencyScores[0]!.evidence, [{ turnId: 'turn_aaaaaaaaaaaa1', quote: 'I explained the plan to the team.', start: 0, end: 33 }]);
    // Weight 2 of 4 scored: exactly half, so there is a score: 100·2·3/4/2 = 75.
    assert.equal(card.overallScore, 75);
    assert.equal(card.recommendation, 'yes');
    assert.deepEqual(card.competencies, [{ name: 'Communication', score: 4, rationale: 'Clear.' }]);
  });

  it('a quote naming another turn, or an interviewer turn, is refused', () => {
    const card = buildScorecard(rubric.slice(0, 1), { competencies: [{ key: 'communication', score: 3, rationale: 'x', quotes: [{ turnId: 'turn_bbbbbbbbbbbb2', quote: 'I explained the plan' }] }] }, turns);
    assert.equal(card.competencyScores[0]!.score, null);
    assert.equal(card.droppedQuotes, 1);
    assert.equal(card.overallScore, null);
    assert.match(card.overallScoreReason!, /at least half/);
  });

  it('a quote of 300 characters is kept and one of 301 is refused, counted in code points (an emoji is one)', () => {
    const long = [{ id: 'turn_cccccccccccc3', text: `\u{1F600}\u{1F600}${'x'.repeat(400)}` }];
    const card = buildScorecard(rubric.slice(0, 2), {
      competencies: [
        { key: 'communication', score: 4, rationale: 'x', quotes: [{ turnId: 'turn_cccccccccccc3', quote: `\u{1F600}${'x'.repeat(299)}` }] },
        { key: 'ownership', score: 4, rationale: 'x', quotes: [{ turnId: 'turn_cccccccccccc3', quote: `\u{1F600}${'x'.repeat(300)}` }] },
      ],
    }, long);
    assert.deepEqual(card.competencyScores[0]!.evidence.map((e) => [e.start, e.end]), [[1, 301]], '300 code points (301 UTF-16 units)');
    assert.equal(card.competencyScores[1]!.score, null, '301 code points');
    assert.equal(card.droppedQuotes, 1);
  });

  it('at most three quotes per competency; the rest count as dropped', () => {
    const quotes = ['I explained', 'the plan', 'to the team', 'Then I owned'].map((quote) => ({ turnId: 'turn_aaaaaaaaaaaa1', quote }));
    const card = buildScorecard(rubric.slice(0, 1), { competencies: [{ key: 'communication', score: 3, rationale: 'x', quotes }] }, turns);
    assert.equal(card.competencyScores[0]!.evidence.length, 3);
    assert.equal(card.droppedQuotes, 1);
  });

  it('quotes under a key the rubric lacks, a key given twice, or a competency left unscored are refused and counted', () => {
    const quote = { turnId: 'turn_aaaaaaaaaaaa1', quote: 'I explained the plan to the team.' };
    const card = buildScorecard(rubric, {
      competencies: [
        { key: 'communication', score: 4, rationale: 'Clear.', quotes: [quote] },
        { key: 'communication', score: 2, rationale: 'Again.', quotes: [quote] },
        { key: 'unknown', score: 5, rationale: 'Not in the rubric.', quotes: [quote] },
        { key: 'ownership', score: null, rationale: 'Not enough.', quotes: [{ turnId: 'turn_aaaaaaaaaaaa1', quote: 'Then I owned the rollout.' }] },
      ],
    }, turns);
    assert.deepEqual(card.competencyScores.map((c) => [c.key, c.score, c.evidence.length, c.insufficientEvidence]), [
      ['communication', 4, 1, false],
      ['ownership', null, 0, true],
      ['craft', null, 0, true],
    ]);
    assert.equal(card.droppedQuotes, 3);
  });
});
