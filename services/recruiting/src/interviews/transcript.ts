import { compiledOnce, newId, sql, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type FollowUpSkipped, type Question, type Transcript, type Turn, type TurnSignals } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import type { Db, InterviewsTable, InterviewTurnsTable, RecruitingDB } from '../db.js';

// The transcript (PRODUCT.md §12): rows of turns in recruiting's schema, one per interviewer
// question or follow-up and per candidate answer, in `seq` order. A turn is stored once: the
// (interview, seq) key makes a repeated write of the same turn a no-op.

/**
 * The id of the n-th question (0-based) of an interview scheduled before rubrics existed: derived
 * from the interview id, as migration 0018 derived them for the turns it backfilled.
 */
export function legacyQuestionId(interviewId: string, index: number): string {
  return `${ID_PREFIXES.question}_${interviewId.slice(ID_PREFIXES.interview.length + 1)}${String(index + 1).padStart(2, '0')}`;
}

/** The questions an interview asks: those pinned at scheduling, or (before rubrics) its texts with derived ids. */
export function questionPlanOf(row: Pick<Selectable<InterviewsTable>, 'id' | 'questions' | 'pinned_questions'>): Question[] {
  if (row.pinned_questions) return row.pinned_questions;
  return row.questions.map((text, i) => ({ id: legacyQuestionId(row.id, i), text, competencies: [], maxFollowUps: 0 }));
}

export type TurnRow = Selectable<InterviewTurnsTable>;

export function toTurn(row: TurnRow): Turn {
  return {
    id: row.id,
    role: row.role,
    kind: row.kind,
    questionId: row.question_id,
    text: row.text,
    at: row.at.toISOString(),
    ...(row.signals ? { signals: row.signals } : {}),
    ...(row.follow_up_skipped ? { followUpSkipped: row.follow_up_skipped } : {}),
  };
}

/** An interview's turns in `seq` order; compiled once (read on the candidate's every turn). */
export const turnRows: (db: Db, interviewId: string) => Promise<TurnRow[]> = compiledOnce((db: Kysely<RecruitingDB>, interviewId: string) =>
  db.selectFrom('recruiting.interview_turns').selectAll().where('interview_id', '=', interviewId).orderBy('seq'),
);

export async function transcriptOf(db: Db, interviewId: string): Promise<Transcript> {
  return { turns: (await turnRows(db, interviewId)).map(toTurn) };
}

/** A turn to store at position `seq` of the interview's transcript. */
export interface NewTurn {
  seq: number;
  role: Turn['role'];
  kind: Turn['kind'];
  questionId: string;
  text: string;
  at: Date;
  /** An answer's integrity signals (only with consent to a notice that mentions them). */
  signals?: TurnSignals | null;
  /** An answer after which a follow-up was allowed but not asked: why (PRODUCT.md §12). */
  followUpSkipped?: FollowUpSkipped | null;
}

/**
 * The interview's first turn, its first scripted question, unless a turn exists already: asked
 * when the candidate starts, and when an interview that was in progress before the conversation
 * existed is opened again (CLARIFICATIONS 2026-11-26: it continues from its first question).
 * Only while the interview is writable (`writableInterview`): the reopening asks it without the
 * interview's row lock, and must not ask it of an interview that a scrub emptied meanwhile.
 */
export async function askFirstQuestion(db: Db, row: Pick<Selectable<InterviewsTable>, 'id' | 'organization_id' | 'questions' | 'pinned_questions'>, at = new Date()): Promise<void> {
  const first = questionPlanOf(row)[0];
  if (!first) return;
  const turn = { id: newId(ID_PREFIXES.turn, at.getTime()), seq: 0, role: 'interviewer', kind: 'question', questionId: first.id, text: first.text, at, signals: null, skipped: null } as const;
  await insertTurnInto(db, row.id, turn).execute();
}

/**
 * The insert of appendTurns: any number of turns in one statement over arrays, so that its text
 * is the same for one turn or ten and is compiled once.
 */
const insertTurns = compiledOnce(
  (db: Kysely<RecruitingDB>, organizationId: string, interviewId: string, ids: string[], seqs: number[], roles: string[], kinds: string[], questionIds: string[], texts: string[], ats: Date[], signals: (string | null)[], skipped: (string | null)[]) =>
    db
      .insertInto('recruiting.interview_turns')
      .columns(['id', 'organization_id', 'interview_id', 'seq', 'role', 'kind', 'question_id', 'text', 'at', 'signals', 'follow_up_skipped'])
      .expression(
        sql`select t.id, ${organizationId}::text, ${interviewId}::text, t.seq, t.role, t.kind, t.question_id, t.text, t.at, t.signals::jsonb, t.follow_up_skipped
            from unnest(${ids}::text[], ${seqs}::integer[], ${roles}::text[], ${kinds}::text[], ${questionIds}::text[], ${texts}::text[], ${ats}::timestamptz[], ${signals}::text[], ${skipped}::text[])
              with ordinality as t(id, seq, role, kind, question_id, text, at, signals, follow_up_skipped, n)
            order by t.n`,
      )
      .onConflict((oc) => oc.columns(['interview_id', 'seq']).doNothing())
      .returningAll(),
);

/** Stores turns once each: a turn already stored at its `seq` is kept as it is. Returns those stored now. */
export async function appendTurns(trx: Db, interview: { id: string; organization_id: string }, turns: NewTurn[]): Promise<TurnRow[]> {
  if (turns.length === 0) return [];
  return insertTurns(
    trx,
    interview.organization_id,
    interview.id,
    turns.map((t) => newId(ID_PREFIXES.turn, t.at.getTime())),
    turns.map((t) => t.seq),
    turns.map((t) => t.role),
    turns.map((t) => t.kind),
    turns.map((t) => t.questionId),
    turns.map((t) => t.text),
    turns.map((t) => t.at),
    turns.map((t) => (t.signals ? JSON.stringify(t.signals) : null)),
    turns.map((t) => t.followUpSkipped ?? null),
  );
}

/**
 * The interview a turn may be written to without its row lock: in progress and not scrubbed, read
 * FOR SHARE, so that concurrent writers of turns do not wait for each other while a status change
 * or a scrub (an erasure) in flight is waited for and then read as it committed. The source of the
 * answer's and the follow-up's inserts; the (interview, seq) key decides between writers.
 */
function writableInterview(db: Kysely<RecruitingDB>, interviewId: string) {
  return db.selectFrom('recruiting.interviews').where('id', '=', interviewId).where('status', '=', 'in_progress').where('content_scrubbed_at', 'is', null).forShare();
}

/** A turn written to `writableInterview(db, interviewId)`: one statement, its row when stored. */
export function insertTurnInto(db: Kysely<RecruitingDB>, interviewId: string, turn: { id: string; seq: number; role: Turn['role']; kind: Turn['kind']; questionId: string; text: string; at: Date; signals: string | null; skipped: string | null }) {
  return db
    .insertInto('recruiting.interview_turns')
    .columns(['id', 'organization_id', 'interview_id', 'seq', 'role', 'kind', 'question_id', 'text', 'at', 'signals', 'follow_up_skipped'])
    .expression(
      writableInterview(db, interviewId).select([
        // Typed: the parameters of a SELECT list would otherwise reach Postgres as text.
        sql<string>`${turn.id}::text`.as('id'),
        'organization_id',
        'id as interview_id',
        sql<number>`${turn.seq}::integer`.as('seq'),
        sql<Turn['role']>`${turn.role}::text`.as('role'),
        sql<Turn['kind']>`${turn.kind}::text`.as('kind'),
        sql<string>`${turn.questionId}::text`.as('question_id'),
        sql<string>`${turn.text}::text`.as('text'),
        sql<Date>`${turn.at}::timestamptz`.as('at'),
        sql<TurnSignals | null>`${turn.signals}::jsonb`.as('signals'),
        sql<FollowUpSkipped | null>`${turn.skipped}::text`.as('follow_up_skipped'),
      ]),
    )
    .onConflict((oc) => oc.columns(['interview_id', 'seq']).doNothing())
    .returningAll();
}

/**
 * The insert of appendAnswer, one statement: the answer to a writable interview, then the next
 * question only if the answer was stored.
 */
const insertAnswer = compiledOnce(
  (db: Kysely<RecruitingDB>, interviewId: string, id: string, seq: number, questionId: string, text: string, at: Date, signals: string | null, skipped: string | null, nextId: string | null, nextQuestionId: string | null, nextText: string | null) =>
    db
      .with('answer', () => insertTurnInto(db, interviewId, { id, seq, role: 'candidate', kind: 'answer', questionId, text, at, signals, skipped }))
      .with('next', (qb) =>
        qb
          .insertInto('recruiting.interview_turns')
          .columns(['id', 'organization_id', 'interview_id', 'seq', 'role', 'kind', 'question_id', 'text', 'at'])
          .expression(
            sql`select ${nextId}::text, a.organization_id, a.interview_id, a.seq + 1, 'interviewer', 'question', ${nextQuestionId}::text, ${nextText}::text, a.at
                from answer a
                where ${nextId}::text is not null`,
          )
          .onConflict((oc) => oc.columns(['interview_id', 'seq']).doNothing())
          .returningAll(),
      )
      .selectFrom('answer')
      .selectAll()
      .unionAll((eb) => eb.selectFrom('next').selectAll()),
);

/**
 * The candidate's answer, with the next scripted question (`next`) after it when given, without the
 * interview's row lock: both are stored or neither, only while the interview is writable
 * (writableInterview), and only if nothing holds the answer's position yet (the
 * (interview, seq) key: of two requests answering the same turn, the second stores nothing).
 * Returns the turns stored, in `seq` order; none when the answer was not stored.
 */
export async function appendAnswer(db: Db, interviewId: string, answer: NewTurn, next: Pick<Question, 'id' | 'text'> | null): Promise<TurnRow[]> {
  const rows = await insertAnswer(
    db,
    interviewId,
    newId(ID_PREFIXES.turn, answer.at.getTime()),
    answer.seq,
    answer.questionId,
    answer.text,
    answer.at,
    answer.signals ? JSON.stringify(answer.signals) : null,
    answer.followUpSkipped ?? null,
    next ? newId(ID_PREFIXES.turn, answer.at.getTime()) : null,
    next?.id ?? null,
    next?.text ?? null,
  );
  return rows.sort((a, b) => a.seq - b.seq);
}

/**
 * Today's one-page form as turns: each scripted question (shown when the interview started),
 * then its answer (given at submission).
 */
export function scriptedTurns(plan: Question[], answers: string[], startedAt: Date, submittedAt: Date): NewTurn[] {
  return plan.flatMap((q, i) => [
    { seq: 2 * i, role: 'interviewer' as const, kind: 'question' as const, questionId: q.id, text: q.text, at: startedAt },
    { seq: 2 * i + 1, role: 'candidate' as const, kind: 'answer' as const, questionId: q.id, text: answers[i] ?? '', at: submittedAt },
  ]);
}

/**
 * The v1 `answers` of an evaluation (CLARIFICATIONS "v1 shapes"): one entry per scripted
 * question that has an answer, holding the first answer to it; answers to follow-ups are in the
 * transcript only.
 */
export function scriptedAnswers(turns: Pick<Turn, 'kind' | 'questionId' | 'text'>[]): { question: string; answer: string }[] {
  const out: { question: string; answer: string }[] = [];
  for (const q of turns.filter((t) => t.kind === 'question')) {
    const answer = turns.find((t) => t.kind === 'answer' && t.questionId === q.questionId);
    if (answer) out.push({ question: q.text, answer: answer.text });
  }
  return out;
}

/** Erasure and the answers retention: the transcript goes, turns and signals with it. */
export async function deleteTranscripts(trx: Db, interviewIds: string[]): Promise<void> {
  if (interviewIds.length === 0) return;
  await trx.deleteFrom('recruiting.interview_turns').where('interview_id', 'in', interviewIds).execute();
}
