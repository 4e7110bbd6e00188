import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { verifyQuote } from '@hireloop/recruiting/evaluations/quotes';
import { DEFAULT_RUBRIC_COMPETENCIES, defaultQuestionsFor } from '@hireloop/recruiting/positions/default-rubric';
import { offlineRubricEvaluation } from './offline-rubric.js';

const questions = defaultQuestionsFor({ competencies: DEFAULT_RUBRIC_COMPETENCIES });
const answer = (i: number, text: string) => ({ id: `turn_answer0000000${i}`, role: 'candidate' as const, kind: 'answer', questionId: questions[i]!.id, text });
const input = (texts: string[]) => ({
  interviewId: 'int_test',
  version: 1,
  title: 'Engineer interview',
  position: { title: 'Engineer' },
  rubric: { version: 1, competencies: DEFAULT_RUBRIC_COMPETENCIES },
  questions,
  turns: texts.map((t, i) => answer(i, t)),
});

const rich = [
  'I want to own outcomes end to end and learn from mistakes. My goal is to grow the team and its results.',
  'I led a migration: I broke the problem down, compared two options and their trade-offs, and explained the decision. The result was a measurable drop in latency.',
  'A colleague and I disagreed about the design. I listened, we resolved the disagreement constructively, and the team agreed on a shared outcome.',
  'In six months I want concrete goals for the role: take responsibility for the release process.',
];

describe('the offline provider scores against the rubric', () => {
  it('is deterministic: the same transcript gives the same scores and quotes', () => {
    assert.deepEqual(offlineRubricEvaluation(input(rich)), offlineRubricEvaluation(input(rich)));
  });

  it('quotes answer sentences that pass the same verification as a model\'s quotes', () => {
    const out = offlineRubricEvaluation(input(rich));
    const texts = new Map(input(rich).turns.map((t) => [t.id, t.text]));
    const quotes = out.competencies.flatMap((c) => c.quotes);
    assert.ok(quotes.length > 0);
    for (const q of quotes) assert.ok(verifyQuote(texts.get(q.turnId)!, q.quote), q.quote);
    assert.ok(out.competencies.every((c) => c.score !== null), JSON.stringify(out));
  });

  it('a sentence longer than a quote (300 characters) is still evidence: quoted in runs of its words, each verbatim and short enough', () => {
    const runOn = Array.from({ length: 40 }, (_, i) => `teamwork with colleagues on shared goals number ${i}`).join(' and ');
    const long = `${runOn} \u{1F600}${'x'.repeat(400)} end.`;
    const out = offlineRubricEvaluation(input(['I like it.', 'I fixed it.', long, 'Fine.']));
    const teamwork = out.competencies.find((c) => c.key === 'collaboration')!;
    assert.notEqual(teamwork.score, null, JSON.stringify(teamwork));
    assert.ok(teamwork.quotes.length > 0);
    for (const q of teamwork.quotes) {
      assert.ok(q.quote.length <= 300, `${q.quote.length} UTF-16 units, as the scorecard counts a quote`);
      assert.ok(verifyQuote(long, q.quote), q.quote);
    }
  });

  it('thin answers give no evidence and no score', () => {
    const out = offlineRubricEvaluation(input(['Yes.', 'Yes.', 'No.', 'Yes.']));
    assert.ok(out.competencies.every((c) => c.score === null && c.quotes.length === 0));
  });

  it('fuller, anchored answers score higher than short ones', () => {
    const short = offlineRubricEvaluation(input(['I like the role.', 'I fixed a problem.', 'We talked.', 'Learn things.']));
    const full = offlineRubricEvaluation(input(rich));
    const sum = (o: typeof full) => o.competencies.reduce((s, c) => s + (c.score ?? 0), 0);
    assert.ok(sum(full) > sum(short), `${sum(full)} > ${sum(short)}`);
  });

  it('the rationale states the score and both parts of its mean, so a score never reads as contradicting its anchor', () => {
    for (const c of offlineRubricEvaluation(input(rich)).competencies) {
      if (c.score === null) continue;
      const parts = /^Offline scoring: (\d) of 5, the mean of the closest anchor, (\d) \(.*\), and the answers' detail, (\d\.\d) of 5 \(\d+ meaningful words/.exec(c.rationale);
      assert.ok(parts, c.rationale);
      const [, score, anchor, detail] = parts.map(Number);
      assert.equal(score, c.score);
      assert.equal(Math.max(1, Math.min(5, Math.round((anchor! + detail!) / 2))), c.score, c.rationale);
    }
  });
});
