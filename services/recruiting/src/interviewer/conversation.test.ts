import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Question } from '@hireloop/contracts';
import { afterAnswer, conversationState, exchangeOf, type ConversationTurn } from './conversation.js';

const plan: Question[] = [
  { id: 'q_1', text: 'Why this role?', competencies: [], maxFollowUps: 1 },
  { id: 'q_2', text: 'Hardest bug?', competencies: [], maxFollowUps: 2 },
  { id: 'q_3', text: 'Questions for us?', competencies: [], maxFollowUps: 0 },
];

let seq = 0;
const at = new Date('2026-11-26T10:00:00Z');
const turn = (kind: ConversationTurn['kind'], questionId: string, text = kind): ConversationTurn => ({
  id: `turn_${seq}`,
  seq: seq++,
  role: kind === 'answer' ? 'candidate' : 'interviewer',
  kind,
  questionId,
  text,
  at,
});
const transcript = (...turns: [ConversationTurn['kind'], string][]) => {
  seq = 0;
  return turns.map(([kind, q]) => turn(kind, q));
};

describe('the conversation state', () => {
  it('has not begun without turns', () => {
    assert.deepEqual(conversationState(plan, []), { phase: 'not_begun' });
  });

  it('awaits an answer to the interviewer\'s last turn, a question or a follow-up', () => {
    const asked = transcript(['question', 'q_1']);
    assert.deepEqual(conversationState(plan, asked), { phase: 'awaiting_answer', turn: asked[0], questionIndex: 0 });
    const followed = transcript(['question', 'q_1'], ['answer', 'q_1'], ['follow_up', 'q_1']);
    const state = conversationState(plan, followed);
    assert.equal(state.phase, 'awaiting_answer');
    assert.equal(state.phase === 'awaiting_answer' && state.turn.kind, 'follow_up');
  });

  it('is deciding after an answer, until the next turn is stored', () => {
    const answered = transcript(['question', 'q_1'], ['answer', 'q_1']);
    assert.deepEqual(conversationState(plan, answered), { phase: 'deciding', answer: answered[1], questionIndex: 0 });
  });
});

describe('what may follow an answer', () => {
  it('a follow-up while the question has follow-ups left, then the next scripted question', () => {
    const first = transcript(['question', 'q_1'], ['answer', 'q_1']);
    assert.deepEqual(afterAnswer(plan, first, first[1]!), { followUpsLeft: true, followUpsAsked: 0, next: { question: plan[1], index: 1 } });
    const second = transcript(['question', 'q_1'], ['answer', 'q_1'], ['follow_up', 'q_1'], ['answer', 'q_1']);
    assert.equal(afterAnswer(plan, second, second[3]!).followUpsLeft, false, 'maxFollowUps 1 is reached');
  });

  it('counts follow-ups per scripted question, up to its maxFollowUps', () => {
    const turns = transcript(['question', 'q_1'], ['answer', 'q_1'], ['follow_up', 'q_1'], ['answer', 'q_1'], ['question', 'q_2'], ['answer', 'q_2'], ['follow_up', 'q_2'], ['answer', 'q_2']);
    const after = afterAnswer(plan, turns, turns[7]!);
    assert.equal(after.followUpsAsked, 1);
    assert.equal(after.followUpsLeft, true, 'q_2 allows two');
  });

  it('never a follow-up for a question with maxFollowUps 0; the last question ends the interview', () => {
    const turns = transcript(['question', 'q_3'], ['answer', 'q_3']);
    assert.deepEqual(afterAnswer(plan, turns, turns[1]!), { followUpsLeft: false, followUpsAsked: 0, next: null });
  });

  it('the exchange of a question holds only its own turns', () => {
    const turns = transcript(['question', 'q_1'], ['answer', 'q_1'], ['question', 'q_2'], ['answer', 'q_2']);
    assert.deepEqual(exchangeOf(turns, 'q_2').map((t) => t.seq), [2, 3]);
  });
});
