import { z } from 'zod';
import { recordAudit, type Kysely } from '@hireloop/platform';
import { FollowUpSkipped, InterviewLanguage, MAX_ANSWER_CHARS, PositionId, QuestionId, text, TurnKind, type Question } from '@hireloop/contracts';
import { SCHEMA, type RecruitingDB } from '../db.js';
import { getPositionRow } from '../positions/positions.queries.js';
import { defaultQuestionsFor } from '../positions/default-rubric.js';
import { afterAnswer, conversationState, type ConversationTurn } from './conversation.js';
import { decideFollowUp } from './follow-up.js';
import { followUpRequest, type Interviewer } from './conversation.queries.js';

// "Try the interview" (the console, PRODUCT.md §12): the position's conversation as a candidate
// would have it, with the same state machine and the same follow-up decision, but nothing is
// stored: the console holds the turns and sends them back with each answer. The position's
// current questions and rubric are used (an interview would pin them at scheduling). Each
// preview started is one audit event, `interview.previewed` on the position.

export const PreviewInput = z.object({
  positionId: PositionId,
  language: InterviewLanguage.default('en'),
  /** The preview's turns so far, as this procedure returned them, with the tester's answers. */
  turns: z
    .array(z.object({ kind: TurnKind, questionId: QuestionId, text: text().max(MAX_ANSWER_CHARS) }))
    .max(200),
});
export type PreviewInput = z.infer<typeof PreviewInput>;

export const PreviewStep = z.object({
  /** The interviewer's next turn; null when the interview would end here. */
  turn: z
    .object({ kind: z.enum(['question', 'follow_up']), questionId: QuestionId, text: z.string(), questionNumber: z.number().int(), questionCount: z.number().int() })
    .nullable(),
  /** Why no follow-up came after the last answer, when one was considered and not asked. */
  followUpSkipped: FollowUpSkipped.nullable(),
  /** Who wrote the follow-ups: the configured model, or `offline`. */
  model: z.string(),
});
export type PreviewStep = z.infer<typeof PreviewStep>;

export async function previewStep(db: Kysely<RecruitingDB>, interviewer: Omit<Interviewer, 'taskQueue'>, organizationId: string, input: PreviewInput): Promise<PreviewStep> {
  const position = await getPositionRow(db, organizationId, input.positionId);
  const plan: Question[] = position.questions.length ? position.questions : defaultQuestionsFor({ competencies: position.competencies }, input.language);
  const at = new Date();
  // Scripted questions are the plan's own words, whatever the console sent back.
  const turns: ConversationTurn[] = input.turns.map((t, seq) => ({
    id: `preview_${seq}`,
    seq,
    role: t.kind === 'answer' ? 'candidate' : 'interviewer',
    kind: t.kind,
    questionId: t.questionId,
    text: t.kind === 'question' ? (plan.find((q) => q.id === t.questionId)?.text ?? t.text) : t.text,
    at,
  }));
  const step = (question: Question | undefined, kind: 'question' | 'follow_up', text: string | undefined, followUpSkipped: FollowUpSkipped | null = null): PreviewStep => ({
    turn: question && text !== undefined ? { kind, questionId: question.id, text, questionNumber: plan.indexOf(question) + 1, questionCount: plan.length } : null,
    followUpSkipped,
    model: interviewer.writer.model,
  });
  const state = conversationState(plan, turns);
  if (state.phase === 'not_begun') {
    await recordAudit(db, SCHEMA, organizationId, 'interview.previewed', { type: 'position', id: position.id });
    return step(plan[0], 'question', plan[0]?.text);
  }
  if (state.phase === 'awaiting_answer') return step(plan[state.questionIndex], state.turn.kind === 'follow_up' ? 'follow_up' : 'question', state.turn.text);
  const { answer } = state;
  const after = afterAnswer(plan, turns, answer);
  const question = plan.find((q) => q.id === answer.questionId);
  const next = () => step(after.next?.question, 'question', after.next?.question.text);
  if (!after.followUpsLeft || !question) return next();
  const competencies = position.competencies.filter((c) => question.competencies.includes(c.key));
  const request = followUpRequest({ language: input.language }, question, competencies.length ? competencies : position.competencies, turns, answer, after);
  const decision = await decideFollowUp(interviewer.writer, request, interviewer.followUpTimeoutMs);
  if (decision.kind === 'ask') return step(question, 'follow_up', decision.text);
  return { ...next(), followUpSkipped: decision.kind === 'skip' ? decision.reason : null };
}
