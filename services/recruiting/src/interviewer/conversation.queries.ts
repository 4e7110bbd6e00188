import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { compiledOnce, newId, type Logger } from '@hireloop/platform';
import { ID_PREFIXES, type Competency, type FollowUpSkipped, type Question, type TurnSignals } from '@hireloop/contracts';
import type { Db, RecruitingDB } from '../db.js';
import type { InviteTokens } from '../interviews/invite-token.js';
import { assertAnswerable, completeInterview, findByInviteToken, getInterviewRow, type InterviewRow, type InviteRow } from '../interviews/interviews.queries.js';
import { appendAnswer, appendTurns, askFirstQuestion, questionPlanOf, turnRows, insertTurnInto, type NewTurn, type TurnRow } from '../interviews/transcript.js';
import { effectiveStatus } from '../interviews/status.js';
import { budgetSpent } from '../interviews/time-budget.js';
import { collectsSignals } from '../interviews/ai-notice.js';
import { afterAnswer, conversationState, exchangeOf, type AfterAnswer, type ConversationState, type ConversationTurn } from './conversation.js';
import { decideFollowUp, type FollowUpDecision } from './follow-up.js';
import type { FollowUpRequest } from './follow-up-prompt.js';
import type { FollowUpWriter } from './follow-up-writer.js';

// The conversation in the database (ARCHITECTURE.md "The interviewer"): turns are rows of
// recruiting.interview_turns, and a turn is stored once at its `seq`: the (interview, seq) key
// decides between requests racing for one position. An answer and a follow-up are each one
// insert that checks the interview is in progress (appendAnswer, insertFollowUp); the steps that
// change the interview itself (the last answer, which ends it; moving on after a skipped
// follow-up) hold its row lock. A follow-up is generated
// between two transactions, never while a lock or a connection is held: the answer is committed
// first, then the AI is asked within its deadline, then its follow-up (or the next scripted
// question, with the reason it was skipped) is appended.

export interface Interviewer {
  writer: FollowUpWriter;
  /** INTERVIEWER_FOLLOW_UP_TIMEOUT_MS: the deadline of one follow-up. */
  followUpTimeoutMs: number;
  /** Task queue of the evaluation workflow started when the interview ends. */
  taskQueue: string;
  logger: Logger;
}

/**
 * How long after the deadline an undecided answer waits for the request deciding it. Past
 * that, that request is taken to be gone (a crashed process), and whoever reads the
 * conversation next moves it on with the follow-up skipped (`timeout`).
 */
const SETTLE_GRACE_MS = 2000;
const SETTLE_POLL_MS = 100;

function toConversationTurn(row: TurnRow): ConversationTurn {
  return { id: row.id, seq: row.seq, role: row.role, kind: row.kind, questionId: row.question_id, text: row.text, at: row.at, followUpSkipped: row.follow_up_skipped };
}

/** An interview with its conversation as read: the questions, the turns so far, and the state they make. */
export interface Conversation<Row extends InterviewRow = InterviewRow> {
  row: Row;
  plan: Question[];
  turns: ConversationTurn[];
  state: ConversationState;
}

async function conversationOf<Row extends InterviewRow>(db: Db, row: Row): Promise<Conversation<Row>> {
  const plan = questionPlanOf(row);
  const turns = (await turnRows(db, row.id)).map(toConversationTurn);
  return { row, plan, turns, state: conversationState(plan, turns) };
}

/** The conversation, with its first question asked if nothing was asked yet (an interview in progress from before the conversation). */
async function begunConversation<Row extends InterviewRow>(db: Db, row: Row): Promise<Conversation<Row>> {
  const read = await conversationOf(db, row);
  if (read.state.phase !== 'not_begun') return read;
  await askFirstQuestion(db, row);
  return conversationOf(db, row);
}

/** The next scripted question after `after`'s answer at `answerSeq`, as the turn to store; none after the last. */
function nextQuestionTurn(after: AfterAnswer, answerSeq: number, at: Date): NewTurn[] {
  if (!after.next) return [];
  return [{ seq: answerSeq + 1, role: 'interviewer', kind: 'question', questionId: after.next.question.id, text: after.next.question.text, at }];
}

/**
 * After a stored answer that gets no follow-up (none needed, none left, or skipped for
 * `skipped`): the next scripted question, or the end of the interview after the last one.
 * Returns the question asked now; null when the interview ended.
 */
async function moveOn(trx: Db, tokens: InviteTokens, interviewer: Interviewer, row: InterviewRow, answer: ConversationTurn, after: AfterAnswer, skipped: FollowUpSkipped | null): Promise<ConversationTurn | null> {
  const now = new Date();
  if (skipped) await trx.updateTable('recruiting.interview_turns').set({ follow_up_skipped: skipped }).where('id', '=', answer.id).execute();
  if (after.next) {
    const [asked] = await appendTurns(trx, row, nextQuestionTurn(after, answer.seq, now));
    return asked ? toConversationTurn(asked) : null;
  }
  await completeInterview(trx, tokens, row, interviewer.taskQueue, now);
  return null;
}

/** The conversation once `turn` is asked after `turns`, as the request that asked it knows it. */
function askedNext<Row extends InterviewRow>(row: Row, plan: Question[], turns: ConversationTurn[], turn: ConversationTurn | null): Conversation<Row> | undefined {
  if (!turn) return undefined;
  const all = [...turns, turn];
  return { row, plan, turns: all, state: conversationState(plan, all) };
}

/**
 * Competencies of rubric versions read so far. A version is never changed once written, so every
 * instance may keep what it read; at most RUBRICS_KEPT versions, the oldest read dropped first.
 */
const rubrics = new Map<string, Competency[]>();
const RUBRICS_KEPT = 500;

/** The competencies (with anchors) of the pinned rubric that `question` is about; all of them when it names none. */
async function competenciesOf(db: Db, row: InterviewRow, question: Question): Promise<Competency[]> {
  if (row.rubric_version === null) return [];
  const key = `${row.position_id}:${row.rubric_version}`;
  let all = rubrics.get(key);
  if (!all) {
    const rubric = await db.selectFrom('recruiting.rubric_versions').select('competencies').where('position_id', '=', row.position_id).where('version', '=', row.rubric_version).executeTakeFirst();
    all = rubric?.competencies ?? [];
    if (rubrics.size >= RUBRICS_KEPT) rubrics.delete(rubrics.keys().next().value!);
    rubrics.set(key, all);
  }
  const named = all.filter((c) => question.competencies.includes(c.key));
  return named.length > 0 ? named : all;
}

/** What the follow-up after `answer` is generated from: the question, its anchors, this question's exchange. */
export function followUpRequest(row: Pick<InterviewRow, 'language'>, question: Question, competencies: Competency[], turns: ConversationTurn[], answer: ConversationTurn, after: AfterAnswer): FollowUpRequest {
  return {
    seed: answer.id,
    language: row.language,
    question: question.text,
    competencies: competencies.map((c) => ({ name: c.name, description: c.description, levels: c.levels })),
    exchange: exchangeOf(turns, question.id).map((t) => ({ role: t.role, text: t.text })),
    followUpNumber: after.followUpsAsked + 1,
    maxFollowUps: question.maxFollowUps,
  };
}

/** An answer waiting for its follow-up decision, as tx 1 of `answerTurn` leaves it. */
interface Pending {
  row: InviteRow;
  plan: Question[];
  answer: ConversationTurn;
  question: Question;
  turns: ConversationTurn[];
  after: AfterAnswer;
}

export type AnswerOutcome =
  /** Stored; the next turn (a follow-up or the next question) is ready, or the interview ended. */
  | 'accepted'
  /** The same answer to the same turn was stored already (a refresh, a second tab, a retry). */
  | 'duplicate'
  /** The turn answered is not the current one (a stale page): nothing stored, the current turn comes back. */
  | 'stale';

export interface AnswerResult {
  outcome: AnswerOutcome;
  /**
   * The conversation as this answer left it, when the request knows it from its own writes: the
   * turn it asked next was stored under the interview's lock, or by the one statement that
   * checked the interview was still in progress. Absent otherwise (the interview ended, another
   * request moved the conversation on, nothing was stored): read it then.
   */
  conversation?: Conversation<InviteRow>;
}

export interface AnswerInput {
  /** The interviewer turn being answered: the submission's key, so that a turn is stored once. */
  turnId: string;
  text: string;
  signals?: TurnSignals | undefined;
}

/**
 * Whether `input` answers a turn that has its answer already: the same words (`duplicate`), or
 * other ones from a stale page (`stale`); null when the turn is unanswered or unknown.
 */
function answeredBefore(turns: ConversationTurn[], input: AnswerInput): 'duplicate' | 'stale' | null {
  const target = turns.find((t) => t.id === input.turnId && t.role === 'interviewer');
  const stored = target && turns.find((t) => t.seq === target.seq + 1);
  if (!stored) return null;
  return stored.role === 'candidate' && stored.text === input.text ? 'duplicate' : 'stale';
}

/** What an answer does to the conversation as read: nothing stored (`outcome`), or the answer to store. */
type Step =
  | { outcome: 'duplicate' | 'stale' }
  | {
      conversation: Conversation<InviteRow>;
      /** The answer's turn, with `followUpSkipped: 'budget'` when a follow-up was allowed but the time is spent. */
      answered: NewTurn;
      after: AfterAnswer;
      question: Question | undefined;
      /** Whether the interviewer decides on a follow-up after it (else the next question comes, or the end). */
      followUp: boolean;
    };
type Answer = Exclude<Step, { outcome: unknown }>;

/** The last scripted question's last answer: the interview ends with it. */
const endsInterview = (step: Answer) => !step.followUp && !step.after.next;

/** The interview of `token` and what `input` does to its conversation, read on `db` (under the interview's row lock when `locked`). */
async function stepOf(db: Db, token: string, input: AnswerInput, locked: boolean): Promise<Step> {
  const row = await findByInviteToken(db, token, locked);
  // The last answer sent twice (a double click, a retry) finds the interview completed by the first.
  if (effectiveStatus(row) === 'completed' && answeredBefore((await conversationOf(db, row)).turns, input) === 'duplicate') return { outcome: 'duplicate' };
  assertAnswerable(row);
  const conversation = await begunConversation(db, row);
  const { plan, turns } = conversation;
  const target = turns.find((t) => t.id === input.turnId && t.role === 'interviewer');
  const before = answeredBefore(turns, input);
  if (!target || before) return { outcome: before ?? 'stale' };

  const signals = input.signals && collectsSignals(row.consent_notice_version) ? input.signals : null;
  const answered: NewTurn = { seq: target.seq + 1, role: 'candidate', kind: 'answer', questionId: target.questionId, text: input.text, at: new Date(), signals };
  const after = afterAnswer(plan, turns, { ...answered, id: '' });
  const question = plan.find((q) => q.id === answered.questionId);
  const followUp = after.followUpsLeft && question !== undefined && !budgetSpent(row);
  return { conversation, answered: { ...answered, followUpSkipped: !followUp && after.followUpsLeft ? 'budget' : null }, after, question, followUp };
}

/** What storing an answer came to: the result, or (`pending`) the answer stored and its follow-up still to decide. */
type Stored = AnswerResult | { pending: Pending };

/**
 * Stores `step`'s answer, and the next question with it when no follow-up is decided on, in one
 * statement (appendAnswer). When nothing was stored, another request answered this turn first or
 * the interview changed meanwhile: the conversation is read again for the outcome.
 */
async function storeAnswer(db: Db, token: string, input: AnswerInput, step: Answer): Promise<Stored> {
  const { conversation: { row, plan, turns }, answered, after, question, followUp } = step;
  const next = followUp ? null : (after.next?.question ?? null);
  const stored = (await appendAnswer(db, row.id, answered, next)).map(toConversationTurn);
  const [answer] = stored;
  if (!answer) {
    const again = await stepOf(db, token, input, false);
    return { outcome: 'outcome' in again ? again.outcome : 'stale' };
  }
  const all = [...turns, ...stored];
  if (followUp && question) return { pending: { row, plan, answer, question, turns: all, after } };
  // Known from this request's own writes while the conversation goes on (after the end, read it).
  return { outcome: 'accepted', conversation: next && stored.length === 2 ? { row, plan, turns: all, state: conversationState(plan, all) } : undefined };
}

/**
 * The last answer, under the interview's row lock, read again there: the answer, the interview's
 * end and its evaluation's start commit together, once.
 */
function answerLast(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, token: string, input: AnswerInput): Promise<Stored> {
  return db.transaction().execute(async (trx) => {
    const step = await stepOf(trx, token, input, true);
    if ('outcome' in step) return step;
    const stored = await storeAnswer(trx, token, input, step);
    if (endsInterview(step) && 'outcome' in stored && stored.outcome === 'accepted') {
      await completeInterview(trx, tokens, step.conversation.row, interviewer.taskQueue, step.answered.at);
    }
    return stored;
  });
}

/**
 * The candidate answers the current turn (PRODUCT.md §12). Stored once per turn; a submission
 * for any other turn stores nothing. After the answer the interviewer decides on a follow-up,
 * within its deadline, and the next turn is stored before this returns, so the page that follows
 * shows it. Every answer but the last goes without the interview's row lock: one read of the
 * interview and its turns, then one insert that the (interview, seq) key keeps to one per turn.
 */
export async function answerTurn(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, token: string, input: AnswerInput): Promise<AnswerResult> {
  const step = await stepOf(db, token, input, false);
  const result = 'outcome' in step ? step : endsInterview(step) ? await answerLast(db, tokens, interviewer, token, input) : await storeAnswer(db, token, input, step);
  if ('pending' in result) return { outcome: 'accepted', conversation: await decideAndAppend(db, tokens, interviewer, result.pending) };
  if (result.outcome === 'duplicate') await settle(db, tokens, interviewer, token);
  return result;
}

/**
 * Asks the writer for a follow-up (no transaction open meanwhile), then appends what comes next;
 * the conversation with the follow-up when this request stored it.
 */
async function decideAndAppend(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, pending: Pending): Promise<Conversation<InviteRow> | undefined> {
  const { row, plan, answer, question, turns, after } = pending;
  const competencies = await competenciesOf(db, row, question);
  const decision = await decideFollowUp(interviewer.writer, followUpRequest(row, question, competencies, turns, answer, after), interviewer.followUpTimeoutMs);
  logDecision(interviewer.logger, row.id, answer.id, decision);
  const followUp = await appendDecision(db, tokens, interviewer, row, answer, decision);
  return askedNext(row, plan, turns, followUp);
}

function logDecision(logger: Logger, interviewId: string, turnId: string, decision: FollowUpDecision): void {
  if (decision.kind !== 'skip') return;
  // Ids, the reason and the list entry only: never the candidate's words or the dropped question.
  const forbidden = decision.forbidden ? { topic: decision.forbidden.topic, term: decision.forbidden.term } : {};
  logger.info({ interviewId, turnId, followUpSkipped: decision.reason, ...forbidden }, 'follow-up skipped');
}

/**
 * A follow-up as the turn at `seq`, when the interview is still in progress, its content not
 * scrubbed (writableInterview: one written from an answer that an erasure scrubbed meanwhile is
 * not stored), and nothing took that position meanwhile; compiled once (one per follow-up asked).
 */
const insertFollowUp = compiledOnce((db: Kysely<RecruitingDB>, interviewId: string, id: string, seq: number, questionId: string, text: string, at: Date) =>
  insertTurnInto(db, interviewId, { id, seq, role: 'interviewer', kind: 'follow_up', questionId, text, at, signals: null, skipped: null }),
);

/**
 * Appends the turn after `answer` unless one was appended meanwhile (by a request that settled
 * it) or the interview is no longer in progress (cancelled meanwhile). A follow-up is one
 * statement: the (interview, seq) key keeps the first turn written after the answer. Returns
 * the follow-up when this call stored it; null otherwise (a skip moves on under the lock).
 */
async function appendDecision(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, stale: InterviewRow, answer: ConversationTurn, decision: FollowUpDecision): Promise<ConversationTurn | null> {
  // A follow-up decided past the interview's end could never be answered: the answer moves on instead.
  if (decision.kind === 'ask' && effectiveStatus(stale) === 'in_progress') {
    const at = new Date();
    const [stored] = await insertFollowUp(db, stale.id, newId(ID_PREFIXES.turn, at.getTime()), answer.seq + 1, answer.questionId, decision.text, at);
    return stored ? toConversationTurn(stored) : null;
  }
  const skipped = decision.kind === 'skip' ? decision.reason : decision.kind === 'ask' ? 'budget' : null;
  await db.transaction().execute(async (trx) => {
    const row = await getInterviewRow(trx, stale.organization_id, stale.id, true);
    // As of the answer, which was given in time: a last answer whose decision ended past the
    // interview's end still completes it (PRODUCT.md §12: nothing is cut off). Any other answer
    // moves on only while the interview is open: a next question could not be answered.
    if (effectiveStatus(row, answer.at) !== 'in_progress') return;
    const { plan, turns } = await conversationOf(trx, row);
    if (turns.at(-1)?.id !== answer.id) return;
    const after = afterAnswer(plan, turns, answer);
    if (after.next && effectiveStatus(row) !== 'in_progress') return;
    await moveOn(trx, tokens, interviewer, row, answer, after, skipped);
  });
  return null;
}

/**
 * The interview by its invite token, with its conversation settled on a turn the candidate can
 * answer: the first question is asked if nothing was asked yet (an interview in progress before
 * the conversation existed), and an answer's follow-up decision made by another request is
 * waited for, and settled here (skipped: `timeout`) once that request is overdue; bounded by the
 * deadline plus a grace. An interview the candidate cannot answer now comes without turns.
 */
export async function settle(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, token: string): Promise<Conversation<InviteRow>> {
  for (;;) {
    const row = await findByInviteToken(db, token);
    if (effectiveStatus(row) !== 'in_progress' || !row.consent_given_at) return { row, plan: questionPlanOf(row), turns: [], state: { phase: 'not_begun' } };
    const conversation = await begunConversation(db, row);
    const { state } = conversation;
    if (state.phase !== 'deciding') return conversation;
    if (Date.now() - state.answer.at.getTime() >= interviewer.followUpTimeoutMs + SETTLE_GRACE_MS) {
      await appendDecision(db, tokens, interviewer, row, state.answer, { kind: 'skip', reason: 'timeout' });
      continue;
    }
    await sleep(SETTLE_POLL_MS);
  }
}
