import { AppError, changedSince, compiledOnce, isoMicros, createOnce, newId, olderThan, recordAudit, recordEvent, toPage, toSyncPage, updatedAtMicros, type CursorCodec, type Kysely } from '@hireloop/platform';
import { firstCharacters, ID_PREFIXES, INVITE_PAGE_ACTOR, type CreateInterviewBody, type Interview, type InterviewStatus, type ListInterviewsQuery } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type InterviewsTable, type RecruitingDB } from '../db.js';
import { findOrCreateCandidate } from '../candidates/candidates.queries.js';
import { getPositionRow } from '../positions/positions.queries.js';
import { defaultQuestionsFor } from '../positions/default-rubric.js';
import { InviteTokens } from './invite-token.js';
import { appendTurns, askFirstQuestion, questionPlanOf, scriptedTurns } from './transcript.js';
import { startEvaluationVersion } from '../evaluations/versions.js';
import { AI_NOTICE_VERSION } from './ai-notice.js';
import { effectiveStatus, hasEffectiveStatus, isOverdue } from './status.js';

export type InterviewRow = Selectable<InterviewsTable> & { candidate_email: string; candidate_name: string };

const DAY_MS = 86_400_000;

/**
 * Columns of an interview with its candidate's e-mail and name, for every read. The interviews
 * of an erased candidate are in none (PRODUCT.md §7: 404 in the API, the invite page included).
 */
export function selectInterviews(db: Db) {
  return db
    .selectFrom('recruiting.interviews as i')
    .innerJoin('recruiting.candidates as c', 'c.id', 'i.candidate_id')
    .where('c.erased_at', 'is', null)
    .selectAll('i')
    .select(['c.email as candidate_email', 'c.name as candidate_name']);
}

export function toInterview(row: InterviewRow, tokens: InviteTokens): Interview {
  return {
    id: row.id,
    title: row.title,
    status: effectiveStatus(row),
    candidate: { id: row.candidate_id, email: row.candidate_email, name: row.candidate_name },
    positionId: row.position_id,
    duration: row.duration_minutes,
    language: row.language,
    accommodations: { extraTimePercent: row.extra_time_percent },
    inviteUrl: tokens.urlFor(row),
    expiresAt: row.expires_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    completedAt: row.completed_at?.toISOString() ?? null,
    cancelledAt: row.cancelled_at?.toISOString() ?? null,
    cancellationReason: row.cancellation_reason,
    consent: row.consent_given_at ? { givenAt: row.consent_given_at.toISOString(), noticeVersion: row.consent_notice_version ?? '' } : null,
    declinedAt: row.declined_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: isoMicros(row.updated_at),
  };
}

/**
 * The interview of an organization by its id; compiled once (every read of one interview: the
 * API's, and the evaluation's at each interview's end).
 */
const byId = (forUpdate: boolean) =>
  compiledOnce((db: Kysely<RecruitingDB>, organizationId: string, id: string) => {
    const q = selectInterviews(db).where('i.organization_id', '=', organizationId).where('i.id', '=', id);
    return forUpdate ? q.forUpdate('i') : q;
  });
const interviewRow = byId(false);
const interviewRowLocked = byId(true);

export async function getInterviewRow(db: Db, organizationId: string, id: string, forUpdate = false): Promise<InterviewRow> {
  const [row] = await (forUpdate ? interviewRowLocked : interviewRow)(db, organizationId, id);
  if (!row) throw new AppError('not_found', `No interview ${id}.`);
  return row;
}

/** What schedules an interview: the API's body, or a flow's or an ATS stage's defaults (English, no extra time). */
export type InterviewInput = Omit<CreateInterviewBody, 'language'> & Partial<Pick<CreateInterviewBody, 'language'>>;

/**
 * Schedules an interview in the caller's transaction: creates the candidate when the e-mail is
 * new (a name is required then), refuses a closed position, records `interview.scheduled`.
 */
export async function insertInterview(trx: Db, tokens: InviteTokens, organizationId: string, input: InterviewInput): Promise<Interview> {
  const position = await getPositionRow(trx, organizationId, input.positionId, true);
  if (position.status === 'closed') throw new AppError('position_closed', `Position ${position.id} is closed; open it or choose another.`);
  const candidate = await findOrCreateCandidate(trx, organizationId, input.candidate);
  const now = new Date();
  const id = newId(ID_PREFIXES.interview, now.getTime());
  const invite = tokens.issue();
  // Pinned (PRODUCT.md §12): later edits of the position never change how this interview is asked or scored.
  const questions = position.questions.length ? position.questions : defaultQuestionsFor(position, input.language ?? 'en');
  const row = await trx
    .insertInto('recruiting.interviews')
    .values({
      id,
      organization_id: organizationId,
      // CLARIFICATIONS "Default interview title": cut to the 200 characters of a title.
      title: input.title ?? firstCharacters(`${position.title} interview`, 200),
      status: 'scheduled',
      candidate_id: candidate.id,
      position_id: position.id,
      duration_minutes: input.duration,
      language: input.language ?? 'en',
      extra_time_percent: input.accommodations?.extraTimePercent ?? 0,
      invite_token_hash: invite.hash,
      invite_token_sealed: invite.sealed,
      questions: JSON.stringify(questions.map((q) => q.text)),
      rubric_version: position.rubric_version,
      pinned_questions: JSON.stringify(questions),
      expires_at: new Date(now.getTime() + input.expiresInDays * DAY_MS),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const interview = toInterview({ ...row, candidate_email: candidate.email, candidate_name: candidate.name }, tokens);
  await recordEvent(trx, SCHEMA, organizationId, 'interview.scheduled', tokens.forEvent(interview));
  // Here, not in the route: an interview that a hiring flow's stage or an ATS event schedules is audited too.
  await recordAudit(trx, SCHEMA, organizationId, 'interview.scheduled', { type: 'interview', id: interview.id });
  return interview;
}

/** POST /interviews; a repeat of its Idempotency-Key scope returns the interview it made (createOnce). */
export function scheduleInterview(db: Kysely<RecruitingDB>, tokens: InviteTokens, organizationId: string, input: CreateInterviewBody, idempotencyScope: string | null): Promise<Interview> {
  return db.transaction().execute((trx) =>
    createOnce(trx, SCHEMA, idempotencyScope, () => insertInterview(trx, tokens, organizationId, input), async (id) => toInterview(await getInterviewRow(trx, organizationId, id), tokens)));
}

export async function listInterviews(db: Db, codec: CursorCodec, tokens: InviteTokens, organizationId: string, query: ListInterviewsQuery, syncLagMs: number) {
  const { limit, cursor, ...filters } = query;
  const context = { list: 'interviews', organizationId, filters };
  let q = selectInterviews(db).where('i.organization_id', '=', organizationId);
  if (filters.status) q = q.where(hasEffectiveStatus(filters.status));
  if (filters.candidateId) q = q.where('i.candidate_id', '=', filters.candidateId);
  if (filters.positionId) q = q.where('i.position_id', '=', filters.positionId);
  if (filters.createdAfter) q = q.where('i.created_at', '>', new Date(filters.createdAfter));
  if (filters.createdBefore) q = q.where('i.created_at', '<', new Date(filters.createdBefore));
  if (filters.updatedAfter) {
    const position = cursor ? codec.decodeSync(cursor, context) : undefined;
    const rows = await q.select(updatedAtMicros('i')).where(changedSince(filters.updatedAfter, position, syncLagMs, 'i')).orderBy('i.updated_at').orderBy('i.id').limit(limit + 1).execute();
    const page = toSyncPage(rows, limit, codec, context);
    return { items: page.items.map((r) => toInterview(r, tokens)), nextCursor: page.nextCursor };
  }
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context), 'i'));
  const rows = await q.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  return { items: page.items.map((r) => toInterview(r, tokens)), nextCursor: page.nextCursor };
}

/** Moves an interview to a new status and records the matching event, in the caller's transaction. */
async function transition(trx: Db, tokens: InviteTokens, row: InterviewRow, status: InterviewStatus, set: Partial<Pick<InterviewsTable, 'started_at' | 'completed_at' | 'cancelled_at' | 'cancellation_reason' | 'consent_given_at' | 'consent_notice_version' | 'declined_at'>>) {
  const now = new Date();
  const updated = await trx
    .updateTable('recruiting.interviews')
    .set({ ...set, status, updated_at: now })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const interview = toInterview({ ...updated, candidate_email: row.candidate_email, candidate_name: row.candidate_name }, tokens);
  await recordEvent(trx, SCHEMA, row.organization_id, `interview.${status === 'in_progress' ? 'started' : status}` as 'interview.started', tokens.forEvent(interview));
  return interview;
}

/**
 * DELETE /interviews/{id} (PRODUCT.md §7): scheduled or in progress → cancelled, keeping the
 * record and the reason. Cancelling a cancelled interview returns it unchanged; a completed,
 * expired or declined one is 409 interview_not_cancellable.
 */
export function cancelInterview(db: Kysely<RecruitingDB>, tokens: InviteTokens, organizationId: string, id: string, reason?: string): Promise<Interview> {
  return db.transaction().execute(async (trx) => {
    const row = await getInterviewRow(trx, organizationId, id, true);
    const status = effectiveStatus(row);
    if (status === 'cancelled') return toInterview(row, tokens);
    if (status === 'expired' && row.status !== 'expired') await expire(trx, tokens, row);
    if (status === 'completed' || status === 'expired' || status === 'declined') {
      throw new AppError('interview_not_cancellable', `Interview ${id} is ${status} and can no longer be cancelled.`);
    }
    return cancelRow(trx, tokens, row, reason ?? null);
  });
}

/** An open interview (its row held) → cancelled, with the reason, its audit entry and its event. */
async function cancelRow(trx: Db, tokens: InviteTokens, row: InterviewRow, reason: string | null): Promise<Interview> {
  await recordAudit(trx, SCHEMA, row.organization_id, 'interview.cancelled', { type: 'interview', id: row.id });
  return transition(trx, tokens, row, 'cancelled', { cancelled_at: new Date(), cancellation_reason: reason });
}

/**
 * Cancels a candidate's open interviews for a position in the caller's transaction, as
 * DELETE /interviews/{id} would, with the reason (an ATS application rejected or hired:
 * ats.queries.ts). One already past its end is written `expired` instead. The ids cancelled.
 */
export async function cancelOpenInterviewsFor(trx: Db, tokens: InviteTokens, organizationId: string, candidateId: string, positionId: string, reason: string): Promise<string[]> {
  const rows = await selectInterviews(trx)
    .where('i.organization_id', '=', organizationId)
    .where('i.candidate_id', '=', candidateId)
    .where('i.position_id', '=', positionId)
    .where('i.status', 'in', ['scheduled', 'in_progress'])
    .orderBy('i.id')
    .forUpdate('i')
    .execute();
  const cancelled: string[] = [];
  for (const row of rows) {
    if (effectiveStatus(row) === 'expired') {
      await expire(trx, tokens, row);
      continue;
    }
    await cancelRow(trx, tokens, row, reason);
    cancelled.push(row.id);
  }
  return cancelled;
}

function expire(trx: Db, tokens: InviteTokens, row: InterviewRow) {
  return transition(trx, tokens, row, 'expired', {});
}

/**
 * Writes `expired` for open interviews past their expiry, with their events. Run periodically by
 * every recruiting instance; the status condition makes concurrent sweeps skip each other's rows.
 */
export async function expireOverdueInterviews(db: Kysely<RecruitingDB>, tokens: InviteTokens, batch = 200): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await selectInterviews(trx)
      .where(isOverdue('i'))
      .orderBy('i.expires_at')
      .limit(batch)
      .forUpdate('i')
      .skipLocked()
      .execute();
    for (const row of rows) await expire(trx, tokens, row);
    return rows.length;
  });
}

/**
 * The audit row of a candidate's action on the invite page: the actor is the page
 * (INVITE_PAGE_ACTOR), since the candidate holds no key or login, and the row names no person.
 */
export function recordCandidateAudit(trx: Db, row: { id: string; organization_id: string }, action: `interview.${'consented' | 'started' | 'declined' | 'submitted'}`) {
  return recordAudit(trx, SCHEMA, row.organization_id, action, { type: 'interview', id: row.id }, INVITE_PAGE_ACTOR);
}

export type InviteRow = Awaited<ReturnType<typeof findByInviteToken>>;

/** The interview of an invite token's hash, with its position's title; compiled once (the candidate's every turn). */
const byInviteTokenHash = (forUpdate: boolean) =>
  compiledOnce((db: Kysely<RecruitingDB>, hash: string) => {
    const q = selectInterviews(db).innerJoin('recruiting.positions as p', 'p.id', 'i.position_id').select(['p.title as position_title']).where('i.invite_token_hash', '=', hash);
    return forUpdate ? q.forUpdate('i') : q;
  });
const inviteRow = byInviteTokenHash(false);
const inviteRowLocked = byInviteTokenHash(true);

/** The candidate's side, by invite token. */
export async function findByInviteToken(db: Db, token: string, forUpdate = false) {
  const [row] = await (forUpdate ? inviteRowLocked : inviteRow)(db, InviteTokens.hash(token));
  if (!row) throw new AppError('not_found', 'This invite link is not valid.');
  return row;
}

/**
 * The candidate agreed to the AI notice `noticeVersion` and starts (PRODUCT.md §10): consent
 * (time, version) is recorded with the start, and the first question is asked. Only the current
 * notice can be agreed to. An interview started before consent existed records it without
 * starting again.
 */
export function startInterview(db: Kysely<RecruitingDB>, tokens: InviteTokens, token: string, noticeVersion: string) {
  return db.transaction().execute(async (trx) => {
    const row = await findByInviteToken(trx, token, true);
    const status = effectiveStatus(row);
    if (noticeVersion !== AI_NOTICE_VERSION) throw new AppError('conflict', 'The notice has changed; please read it again.');
    const consent = { consent_given_at: new Date(), consent_notice_version: noticeVersion };
    if (status === 'in_progress') {
      if (row.consent_given_at) return toInterview(row, tokens);
      const updated = await trx.updateTable('recruiting.interviews').set({ ...consent, updated_at: new Date() }).where('id', '=', row.id).returningAll().executeTakeFirstOrThrow();
      await recordCandidateAudit(trx, row, 'interview.consented');
      await askFirstQuestion(trx, row);
      return toInterview({ ...updated, candidate_email: row.candidate_email, candidate_name: row.candidate_name }, tokens);
    }
    if (status !== 'scheduled') throw new AppError('conflict', `This interview is ${status}.`);
    // One event: `interview.started` carries the consent given with it.
    await recordCandidateAudit(trx, row, 'interview.started');
    const started = await transition(trx, tokens, row, 'in_progress', { started_at: new Date(), ...consent });
    await askFirstQuestion(trx, row);
    return started;
  });
}

/**
 * The candidate declines the AI interview and asks for a human alternative: scheduled → declined
 * (terminal), with `interview.declined` in the same transaction so the ATS can offer one.
 * Declining twice returns the interview again.
 */
export function declineInterview(db: Kysely<RecruitingDB>, tokens: InviteTokens, token: string) {
  return db.transaction().execute(async (trx) => {
    const row = await findByInviteToken(trx, token, true);
    const status = effectiveStatus(row);
    if (status === 'declined') return toInterview(row, tokens);
    if (status !== 'scheduled') throw new AppError('conflict', `This interview is ${status}.`);
    await recordCandidateAudit(trx, row, 'interview.declined');
    return transition(trx, tokens, row, 'declined', { declined_at: new Date() });
  });
}

/**
 * Whether the candidate may answer now: the interview is in progress (not past its end) and the
 * candidate agreed to the notice (PRODUCT.md §10: no answer without consent). 409 otherwise.
 */
export function assertAnswerable(row: InterviewRow): void {
  const status = effectiveStatus(row);
  if (status !== 'in_progress') throw new AppError('conflict', status === 'scheduled' ? 'Start the interview first.' : `This interview is ${status}.`);
  if (!row.consent_given_at) throw new AppError('conflict', 'Read the notice and agree before answering.');
}

/**
 * The last scripted question is answered: in progress → completed, and evaluation version 1
 * starts (`processing`, its workflow queued through the outbox), in the caller's transaction.
 */
export async function completeInterview(trx: Db, tokens: InviteTokens, row: InterviewRow, taskQueue: string, at = new Date()): Promise<Interview> {
  const interview = await transition(trx, tokens, row, 'completed', { completed_at: at });
  await recordCandidateAudit(trx, row, 'interview.submitted');
  await startEvaluationVersion(trx, row, { version: 1, rubricVersion: row.rubric_version }, taskQueue);
  return interview;
}

/**
 * Every scripted question answered at once, without follow-ups, as the one-page form did: for
 * tools and tests that need a completed interview. The invite page asks one question at a time
 * (interviewer/conversation.queries.ts); this is refused once the conversation has an answer.
 */
export function submitInterview(db: Kysely<RecruitingDB>, tokens: InviteTokens, token: string, answers: string[], taskQueue: string) {
  return db.transaction().execute(async (trx) => {
    const row = await findByInviteToken(trx, token, true);
    assertAnswerable(row);
    if (answers.length !== row.questions.length) {
      throw new AppError('validation_failed', `Answer all ${row.questions.length} questions.`, [{ path: 'answers', message: `expected ${row.questions.length} answers` }]);
    }
    const answered = await trx.selectFrom('recruiting.interview_turns').select('id').where('interview_id', '=', row.id).where('role', '=', 'candidate').limit(1).executeTakeFirst();
    if (answered) throw new AppError('conflict', 'This interview is under way one question at a time; answer the current question.');
    const now = new Date();
    // The first question was stored when the interview started (seq 0): the same turn, kept.
    await appendTurns(trx, row, scriptedTurns(questionPlanOf(row), answers, row.started_at ?? now, now));
    return completeInterview(trx, tokens, row, taskQueue, now);
  });
}
