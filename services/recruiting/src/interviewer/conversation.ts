import type { FollowUpSkipped, Question } from '@hireloop/contracts';

// The interview as a conversation (PRODUCT.md §12 "Turns"), as a pure function of its pinned
// questions and its transcript: which turn the candidate is answering, and what may come after
// an answer. The transcript is the only state; the database queries (conversation.queries.ts)
// and the console's preview both read it through these functions.
//
//   question q1 → answer → [follow-up → answer]* (at most q1.maxFollowUps) → question q2 → … → end
//
// After each answer the interviewer may ask a follow-up about the same scripted question while
// the question has follow-ups left; otherwise the next scripted question comes, or the interview
// ends after the last one.

export interface ConversationTurn {
  id: string;
  seq: number;
  role: 'interviewer' | 'candidate';
  kind: 'question' | 'follow_up' | 'answer';
  questionId: string;
  text: string;
  at: Date;
  followUpSkipped?: FollowUpSkipped | null;
}

export type ConversationState =
  /** Nothing asked yet: the first scripted question comes first. */
  | { phase: 'not_begun' }
  /** The interviewer asked `turn`; the candidate's answer is awaited. */
  | { phase: 'awaiting_answer'; turn: ConversationTurn; questionIndex: number }
  /** The candidate answered; whether a follow-up comes is being decided (or was interrupted). */
  | { phase: 'deciding'; answer: ConversationTurn; questionIndex: number };

/** Turns must be in `seq` order. */
export function conversationState(plan: readonly Question[], turns: readonly ConversationTurn[]): ConversationState {
  const last = turns.at(-1);
  if (!last) return { phase: 'not_begun' };
  const questionIndex = plan.findIndex((q) => q.id === last.questionId);
  if (last.role === 'interviewer') return { phase: 'awaiting_answer', turn: last, questionIndex };
  return { phase: 'deciding', answer: last, questionIndex };
}

export interface AfterAnswer {
  /** Whether the answered question may still get a follow-up (its `maxFollowUps` not reached). */
  followUpsLeft: boolean;
  /** How many follow-ups this question has had so far. */
  followUpsAsked: number;
  /** The next scripted question, or null when the answered one was the last. */
  next: { question: Question; index: number } | null;
}

/** What may follow `answer`, the last turn of `turns`. */
export function afterAnswer(plan: readonly Question[], turns: readonly ConversationTurn[], answer: ConversationTurn): AfterAnswer {
  const index = plan.findIndex((q) => q.id === answer.questionId);
  const question = plan[index];
  const followUpsAsked = turns.filter((t) => t.kind === 'follow_up' && t.questionId === answer.questionId).length;
  const nextQuestion = plan[index + 1];
  return {
    followUpsLeft: question !== undefined && followUpsAsked < question.maxFollowUps,
    followUpsAsked,
    next: index >= 0 && nextQuestion ? { question: nextQuestion, index: index + 1 } : null,
  };
}

/** The turns about one scripted question so far: its question, follow-ups and answers. */
export function exchangeOf(turns: readonly ConversationTurn[], questionId: string): ConversationTurn[] {
  return turns.filter((t) => t.questionId === questionId);
}

/** The interviewer's first turn: the first scripted question. */
export function firstQuestion(plan: readonly Question[]): Question | undefined {
  return plan[0];
}
