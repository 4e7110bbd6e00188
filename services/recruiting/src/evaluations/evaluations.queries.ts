import { AppError, olderThan, runOnce, recordAudit, recordEvent, toPage, type CursorCodec, type Kysely, type Replayable } from '@hireloop/platform';
import type { Evaluation, EvaluationResult, ListCandidateEvaluationsQuery, ListEvaluationVersionsQuery, ModelEvaluation, RerunBody, ReviewBody, Reviewer } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type EvaluationsTable, type RecruitingDB } from '../db.js';
import { getCandidate } from '../candidates/candidates.queries.js';
import { getInterviewRow, selectInterviews, type InterviewRow } from '../interviews/interviews.queries.js';
import { questionPlanOf, scriptedAnswers, toTurn, turnRows, type TurnRow } from '../interviews/transcript.js';
import { rubricVersion } from '../positions/rubric.js';
import { buildScorecard } from './scorecard.js';
import { assertEvaluable, startRerun } from './versions.js';

type EvaluationRow = Selectable<EvaluationsTable>;

function toEvaluation(interview: InterviewRow, row: EvaluationRow | undefined, turns: TurnRow[]): Evaluation {
  return {
    interviewId: interview.id,
    status: row?.status ?? 'pending',
    overallScore: row?.overall_score ?? null,
    recommendation: (row?.recommendation as Evaluation['recommendation']) ?? null,
    summary: row?.summary ?? null,
    strengths: row?.strengths ?? [],
    concerns: row?.concerns ?? [],
    competencies: row?.competencies ?? [],
    answers: scriptedAnswers(turns.map(toTurn)),
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
    version: row?.version ?? null,
    rubricVersion: row?.rubric_version ?? null,
    promptVersion: row?.prompt_version ?? null,
    competencyScores: row?.competency_scores ?? null,
    droppedQuotes: row?.dropped_quotes ?? 0,
    overallScoreReason: row?.overall_score_reason ?? null,
  };
}

function versionRows(db: Db, interviewId: string) {
  return db.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', interviewId).orderBy('version', 'desc').execute();
}

/** The version GET …/evaluation shows: the newest completed one, else the newest (PRODUCT.md §12). */
function shownVersion(rows: EvaluationRow[]): EvaluationRow | undefined {
  return rows.find((r) => r.status === 'completed') ?? rows[0];
}

/**
 * GET /interviews/{id}/evaluation: `pending` until the candidate submits; then the newest
 * completed version, so a re-run in progress never hides a finished score or its review (the
 * newest version while none has completed). 409 evaluation_unavailable for a cancelled,
 * expired or declined interview.
 */
export async function getEvaluation(db: Db, organizationId: string, interviewId: string): Promise<Evaluation> {
  const interview = await getInterviewRow(db, organizationId, interviewId);
  assertEvaluable(interview);
  return toEvaluation(interview, shownVersion(await versionRows(db, interviewId)), await turnRows(db, interviewId));
}

/**
 * GET /interviews/{id}/evaluations: the versions, newest first (none before the interview is
 * completed), in keyset pages like every list (PRODUCT.md §5). An interview has at most
 * MAX_EVALUATION_VERSIONS, read whole; the cursor names the last version of the page.
 */
export async function listEvaluationVersions(db: Db, codec: CursorCodec, organizationId: string, query: ListEvaluationVersionsQuery) {
  const { limit, cursor, interviewId } = query;
  const interview = await getInterviewRow(db, organizationId, interviewId);
  assertEvaluable(interview);
  const context = { list: 'evaluation-versions', organizationId, filters: { interviewId } };
  const before = cursor ? Number(codec.decode(cursor, context).id) : Infinity;
  const rows = (await versionRows(db, interviewId)).filter((row) => row.version < before).map((row) => ({ ...row, id: String(row.version) }));
  const page = toPage(rows, limit, codec, context);
  const turns = page.items.length ? await turnRows(db, interviewId) : [];
  return { items: page.items.map((row) => toEvaluation(interview, row, turns)), nextCursor: page.nextCursor };
}

/**
 * A candidate's evaluations (the console's profile): one per interview the candidate submitted
 * (the version GET …/evaluation shows), newest interview first, in keyset pages over the
 * interviews' `(created_at, id)` on the `interviews_org_candidate_created` index. An unknown
 * candidate is 404.
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
  const evaluations = ids.length ? await db.selectFrom('recruiting.evaluations').selectAll().where('interview_id', 'in', ids).orderBy('version', 'desc').execute() : [];
  const turns = ids.length ? await db.selectFrom('recruiting.interview_turns').selectAll().where('interview_id', 'in', ids).orderBy('seq').execute() : [];
  return {
    items: page.items.map((r) =>
      toEvaluation(r, shownVersion(evaluations.filter((e) => e.interview_id === r.id)), turns.filter((t) => t.interview_id === r.id))),
    nextCursor: page.nextCursor,
  };
}

/**
 * What the evaluation workflow needs for one version: the rubric it scores against (null: an
 * interview from before rubrics, evaluated as before), the questions asked and the transcript.
 * Read by the activity, never passed through the workflow.
 */
export async function evaluationInput(db: Db, organizationId: string, interviewId: string, version: number) {
  const interview = await getInterviewRow(db, organizationId, interviewId);
  const row = await db.selectFrom('recruiting.evaluations').select('rubric_version').where('interview_id', '=', interviewId).where('version', '=', version).executeTakeFirst();
  if (!row) throw new AppError('not_found', `Interview ${interviewId} has no evaluation version ${version}.`);
  const position = await db.selectFrom('recruiting.positions').select(['title', 'description']).where('id', '=', interview.position_id).executeTakeFirstOrThrow();
  const rubric = row.rubric_version === null ? null : await rubricVersion(db, interview.position_id, row.rubric_version);
  const turns = (await turnRows(db, interviewId)).map(toTurn);
  const keys = new Set(rubric?.competencies.map((c) => c.key) ?? []);
  return {
    interviewId,
    version,
    title: interview.title,
    candidateName: interview.candidate_name,
    position: { title: position.title, description: position.description },
    answers: scriptedAnswers(turns),
    rubric,
    // The question → competency hints, cut to the rubric scored against (a re-run may use another).
    questions: questionPlanOf(interview).map((q) => ({ id: q.id, text: q.text, competencies: q.competencies.filter((k) => keys.has(k)) })),
    turns: turns.map((t) => ({ id: t.id, role: t.role, kind: t.kind, questionId: t.questionId, text: t.text })),
  };
}
export type EvaluationInput = Awaited<ReturnType<typeof evaluationInput>>;

/** How an evaluation version ended: scored against its rubric, scored as before rubrics, or failed. */
export type EvaluationOutcome =
  | { kind: 'rubric'; output: ModelEvaluation; model: string; promptVersion: string }
  | { kind: 'legacy'; result: EvaluationResult; model: string; promptVersion: string }
  | { kind: 'failed'; error: { code: string; message: string }; model: string | null };

async function completedValues(trx: Db, interview: InterviewRow, row: EvaluationRow, outcome: EvaluationOutcome, turns: TurnRow[]) {
  if (outcome.kind === 'failed') return { status: 'failed' as const, error: JSON.stringify(outcome.error), model: outcome.model };
  if (outcome.kind === 'legacy' || row.rubric_version === null) {
    if (outcome.kind !== 'legacy') throw new AppError('validation_failed', 'This version is evaluated as before rubrics: send a legacy result.');
    const r = outcome.result;
    return {
      status: 'completed' as const, overall_score: r.overallScore, recommendation: r.recommendation, summary: r.summary,
      strengths: JSON.stringify(r.strengths), concerns: JSON.stringify(r.concerns), competencies: JSON.stringify(r.competencies),
      model: outcome.model, prompt_version: outcome.promptVersion,
    };
  }
  const rubric = await rubricVersion(trx, interview.position_id, row.rubric_version);
  if (!rubric) throw new AppError('conflict', `Rubric version ${row.rubric_version} of the position is missing.`);
  const candidateTurns = turns.filter((t) => t.role === 'candidate');
  const card = buildScorecard(rubric.competencies, outcome.output, candidateTurns);
  return {
    status: 'completed' as const, overall_score: card.overallScore, recommendation: card.recommendation, overall_score_reason: card.overallScoreReason,
    summary: card.summary, strengths: JSON.stringify(card.strengths), concerns: JSON.stringify(card.concerns), competencies: JSON.stringify(card.competencies),
    competency_scores: JSON.stringify(card.competencyScores), dropped_quotes: card.droppedQuotes, model: outcome.model, prompt_version: outcome.promptVersion,
  };
}

/**
 * Stores the outcome of one version once (a retried activity finds it done and changes
 * nothing): the model's scores are verified and the overall score computed here (scorecard.ts),
 * and `evaluation.completed` or `evaluation.failed` carries the version.
 */
export function finishEvaluation(db: Kysely<RecruitingDB>, organizationId: string, interviewId: string, version: number, outcome: EvaluationOutcome): Promise<Evaluation> {
  return db.transaction().execute(async (trx) => {
    const interview = await getInterviewRow(trx, organizationId, interviewId);
    const current = await trx.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', interviewId).where('version', '=', version).forUpdate().executeTakeFirst();
    if (!current) throw new AppError('conflict', `Interview ${interviewId} has no evaluation version ${version}.`);
    const turns = await turnRows(trx, interviewId);
    if (current.status !== 'processing') return toEvaluation(interview, current, turns);
    const now = new Date();
    const row = await trx
      .updateTable('recruiting.evaluations')
      .set({ ...(await completedValues(trx, interview, current, outcome, turns)), completed_at: now, updated_at: now })
      .where('interview_id', '=', interviewId)
      .where('version', '=', version)
      .returningAll()
      .executeTakeFirstOrThrow();
    const evaluation = toEvaluation(interview, row, turns);
    await recordEvent(trx, SCHEMA, organizationId, row.status === 'completed' ? 'evaluation.completed' : 'evaluation.failed', evaluation);
    return evaluation;
  });
}

/** POST /interviews/{id}/evaluation/rerun: the new version, `processing`. */
export function rerunEvaluation(db: Kysely<RecruitingDB>, organizationId: string, interviewId: string, body: RerunBody, taskQueue: string, idempotencyScope: string | null): Promise<Evaluation> {
  return db.transaction().execute((trx) =>
    runOnce(trx, SCHEMA, idempotencyScope, async () => {
      const interview = await getInterviewRow(trx, organizationId, interviewId, true);
      const version = await startRerun(trx, interview, body, taskQueue);
      const row = await trx.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', interviewId).where('version', '=', version).executeTakeFirstOrThrow();
      return toEvaluation(interview, row, await turnRows(trx, interviewId));
    }, onVersion(trx, organizationId)));
}

/**
 * runOnce's record of a write on one evaluation version (a re-run, a review), and its replay: that
 * version as it is now. A review recorded before reviews named their version replays the version
 * GET …/evaluation shows.
 */
function onVersion(trx: Db, organizationId: string): Replayable<Evaluation> {
  return {
    recordOf: (evaluation) => `${evaluation.interviewId}:${evaluation.version ?? ''}`,
    replay: async (record) => {
      const [id, version] = record.split(':') as [string, string | undefined];
      if (!version) return getEvaluation(trx, organizationId, id);
      const interview = await getInterviewRow(trx, organizationId, id);
      const row = await trx.selectFrom('recruiting.evaluations').selectAll().where('interview_id', '=', id).where('version', '=', Number(version)).executeTakeFirst();
      return toEvaluation(interview, row, await turnRows(trx, id));
    },
  };
}

/**
 * A person's decision (PRODUCT.md §7, §10, §12): on one version (`version`, default the one GET
 * …/evaluation shows), only when it is `completed` (409 evaluation_not_ready otherwise,
 * evaluation_unavailable for a cancelled, expired or declined interview); a later review of the
 * same version replaces the earlier one; `evaluation.reviewed` in the same transaction. The
 * reviewer comes from the caller's surface: the API key through the gateway, the session user
 * through the console.
 */
export function reviewEvaluation(db: Kysely<RecruitingDB>, organizationId: string, interviewId: string, review: ReviewBody, reviewer: Reviewer, idempotencyScope: string | null): Promise<Evaluation> {
  // A repeat of the Idempotency-Key scope of POST …/evaluation/review records no second review
  // and emits no second event: it answers the evaluation as it is now (runOnce).
  return db.transaction().execute((trx) =>
    runOnce(trx, SCHEMA, idempotencyScope, () => recordReview(trx, organizationId, interviewId, review, reviewer), onVersion(trx, organizationId)));
}

async function recordReview(trx: Db, organizationId: string, interviewId: string, review: ReviewBody, reviewer: Reviewer): Promise<Evaluation> {
  const interview = await getInterviewRow(trx, organizationId, interviewId, true);
  assertEvaluable(interview);
  const rows = await versionRows(trx, interviewId);
  const target = review.version === undefined ? shownVersion(rows) : rows.find((r) => r.version === review.version);
  // The interview exists (404 is for it alone, PRODUCT.md §7): a version it does not have is a bad field.
  if (review.version !== undefined && !target) throw new AppError('validation_failed', `Interview ${interviewId} has no evaluation version ${review.version}.`, [{ path: 'version', message: 'no such evaluation version' }]);
  if (target?.status !== 'completed') {
    throw new AppError('evaluation_not_ready', `The evaluation of interview ${interviewId} is ${target?.status ?? 'pending'}; a person decides once it is completed.`);
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
    .where('version', '=', target.version)
    .returningAll()
    .executeTakeFirstOrThrow();
  const evaluation = toEvaluation(interview, row, await turnRows(trx, interviewId));
  await recordEvent(trx, SCHEMA, organizationId, 'evaluation.reviewed', evaluation);
  await recordAudit(trx, SCHEMA, organizationId, 'evaluation.reviewed', { type: 'evaluation', id: interviewId }, undefined, { decision: review.decision, version: target.version });
  return evaluation;
}
