import { AppError, olderThan, runOnce, recordAudit, recordEvent, toPage, type CursorCodec, type Kysely } from '@hireloop/platform';
import type { Evaluation, EvaluationResult, ListCandidateEvaluationsQuery, ReviewBody, Reviewer } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type EvaluationsTable, type RecruitingDB } from '../db.js';
import { getCandidate } from '../candidates/candidates.queries.js';
import { getInterviewRow, selectInterviews, type InterviewRow } from '../interviews/interviews.queries.js';
import { effectiveStatus } from '../interviews/status.js';

function answersOf(row: InterviewRow) {
  return (row.answers ?? []).map((answer, i) => ({ question: row.questions[i] ?? '', answer }));
}

function toEvaluation(interview: InterviewRow, row: Selectable<EvaluationsTable> | undefined): Evaluation {
  return {
    interviewId: interview.id,
    status: row?.status ?? 'pending',
    overallScore: row?.overall_score ?? null,
    recommendation: (row?.recommendation as Evaluation['recommendation']) ?? null,
    summary: row?.summary ?? null,
    strengths: row?.strengths ?? [],
    concerns: row?.concerns ?? [],
    competencies: row?.competencies ?? [],
    answers: answersOf(interview),
    model: row?.model ?? null,
    error: row?.error ?? null,
    completedAt: row?.completed_at?.toISOString() ?? null,
    review:
      row?.review_decision && row.reviewer_type && row.reviewed_at
        ? {
            decision: row.review_decision,
            note: row.review_note,
            reviewer: { type: row.reviewer_type, id: row.reviewer_id ?? '', name: row.reviewer_name ?? '' },
            reviewedAt: row.reviewed_at.toISOString(),
          }
        : null,
  };
}

function evaluationRow(db: Db, interviewId: string) {
  return db.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', interviewId).executeTakeFirst();
}

/**
 * GET /interviews/{id}/evaluation: `pending` until the candidate submits, then `processing`,
 * `completed` or `failed`. 409 evaluation_unavailable for a cancelled, expired or declined interview.
 */
export async function getEvaluation(db: Db, organizationId: string, interviewId: string): Promise<Evaluation> {
  const interview = await getInterviewRow(db, organizationId, interviewId);
  const status = effectiveStatus(interview);
  if (status === 'cancelled' || status === 'expired' || status === 'declined') {
    throw new AppError('evaluation_unavailable', `Interview ${interviewId} is ${status}; there is no evaluation.`);
  }
  return toEvaluation(interview, await evaluationRow(db, interviewId));
}

/**
 * A candidate's evaluations (the console's profile): one per interview the candidate submitted,
 * newest interview first, in keyset pages over the interviews' `(created_at, id)` on the
 * `interviews_org_candidate_created` index. An unknown candidate is 404.
 */
export async function listCandidateEvaluations(db: Db, codec: CursorCodec, organizationId: string, query: ListCandidateEvaluationsQuery) {
  const { limit, cursor, ...filters } = query;
  await getCandidate(db, organizationId, filters.candidateId);
  const context = { list: 'candidate-evaluations', organizationId, filters };
  let q = selectInterviews(db)
    .where('i.organization_id', '=', organizationId)
    .where('i.candidate_id', '=', filters.candidateId)
    .where((eb) => eb.exists(eb.selectFrom('recruiting.evaluations as e').select('e.interview_id').whereRef('e.interview_id', '=', 'i.id')));
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context), 'i'));
  const rows = await q.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  const ids = page.items.map((r) => r.id);
  const evaluations = ids.length ? await db.selectFrom('recruiting.evaluations').selectAll().where('interview_id', 'in', ids).execute() : [];
  const byInterview = new Map(evaluations.map((e) => [e.interview_id, e]));
  return { items: page.items.map((r) => toEvaluation(r, byInterview.get(r.id))), nextCursor: page.nextCursor };
}

/** What the evaluation workflow needs: the interview, its position and the answers. */
export async function evaluationInput(db: Db, organizationId: string, interviewId: string) {
  const interview = await getInterviewRow(db, organizationId, interviewId);
  const position = await db.selectFrom('recruiting.positions').select(['title', 'description']).where('id', '=', interview.position_id).executeTakeFirstOrThrow();
  return {
    interviewId,
    title: interview.title,
    candidateName: interview.candidate_name,
    position: { title: position.title, description: position.description },
    answers: answersOf(interview),
  };
}

/** Stores the workflow's outcome once; a retried activity finds it done and changes nothing. */
export function finishEvaluation(
  db: Kysely<RecruitingDB>,
  organizationId: string,
  interviewId: string,
  outcome: { result: EvaluationResult; model: string } | { error: { code: string; message: string }; model: string | null },
): Promise<Evaluation> {
  return db.transaction().execute(async (trx) => {
    const interview = await getInterviewRow(trx, organizationId, interviewId);
    const current = await trx.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', interviewId).forUpdate().executeTakeFirst();
    if (!current) throw new AppError('conflict', `Interview ${interviewId} has not been submitted.`);
    if (current.status !== 'processing') return toEvaluation(interview, current);
    const now = new Date();
    const values =
      'result' in outcome
        ? {
            status: 'completed' as const,
            overall_score: outcome.result.overallScore,
            recommendation: outcome.result.recommendation,
            summary: outcome.result.summary,
            strengths: JSON.stringify(outcome.result.strengths),
            concerns: JSON.stringify(outcome.result.concerns),
            competencies: JSON.stringify(outcome.result.competencies),
            model: outcome.model,
          }
        : { status: 'failed' as const, error: JSON.stringify(outcome.error), model: outcome.model };
    const row = await trx
      .updateTable('recruiting.evaluations')
      .set({ ...values, completed_at: now, updated_at: now })
      .where('interview_id', '=', interviewId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const evaluation = toEvaluation(interview, row);
    await recordEvent(trx, SCHEMA, organizationId, row.status === 'completed' ? 'evaluation.completed' : 'evaluation.failed', evaluation);
    return evaluation;
  });
}

/**
 * A person's decision (PRODUCT.md §7, §10): only on a `completed` evaluation (409
 * evaluation_not_ready otherwise, evaluation_unavailable for a cancelled, expired or declined
 * interview); a later review replaces the earlier one; `evaluation.reviewed` in the same
 * transaction. The reviewer comes from the caller's surface: the API key through the gateway, the
 * session user through the console.
 */
export function reviewEvaluation(db: Kysely<RecruitingDB>, organizationId: string, interviewId: string, review: ReviewBody, reviewer: Reviewer, idempotencyScope: string | null): Promise<Evaluation> {
  // A repeat of the Idempotency-Key scope of POST …/evaluation/review records no second review
  // and emits no second event: it answers the evaluation as it is now (runOnce).
  return db.transaction().execute((trx) =>
    runOnce(trx, SCHEMA, idempotencyScope, () => recordReview(trx, organizationId, interviewId, review, reviewer), {
      recordOf: (evaluation) => evaluation.interviewId,
      replay: (id) => getEvaluation(trx, organizationId, id),
    }));
}

async function recordReview(trx: Db, organizationId: string, interviewId: string, review: ReviewBody, reviewer: Reviewer): Promise<Evaluation> {
  const interview = await getInterviewRow(trx, organizationId, interviewId);
  const status = effectiveStatus(interview);
  if (status === 'cancelled' || status === 'expired' || status === 'declined') {
    throw new AppError('evaluation_unavailable', `Interview ${interviewId} is ${status}; there is no evaluation.`);
  }
  const current = await trx.selectFrom('recruiting.evaluations').select('status').where('interview_id', '=', interviewId).forUpdate().executeTakeFirst();
  if (current?.status !== 'completed') {
    throw new AppError('evaluation_not_ready', `The evaluation of interview ${interviewId} is ${current?.status ?? 'pending'}; a person decides once it is completed.`);
  }
  const now = new Date();
  const row = await trx
    .updateTable('recruiting.evaluations')
    .set({
      review_decision: review.decision,
      review_note: review.note ?? null,
      reviewer_type: reviewer.type,
      reviewer_id: reviewer.id,
      reviewer_name: reviewer.name,
      reviewed_at: now,
      updated_at: now,
    })
    .where('interview_id', '=', interviewId)
    .returningAll()
    .executeTakeFirstOrThrow();
  const evaluation = toEvaluation(interview, row);
  await recordEvent(trx, SCHEMA, organizationId, 'evaluation.reviewed', evaluation);
  await recordAudit(trx, SCHEMA, organizationId, 'evaluation.reviewed', { type: 'evaluation', id: interviewId });
  return evaluation;
}
