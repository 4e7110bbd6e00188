import { AppError, createOnce, newId, olderThan, recordAudit, recordEvent, toPage, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type CandidateEnrollment, type EnrollBody, type Enrollment, type EnrollmentCard, type HiringFlow, type ListCandidateEnrollmentsQuery, type ListEnrollmentsQuery, type MoveEnrollmentBody } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type EnrollmentsTable, type RecruitingDB } from '../db.js';
import { findOrCreateCandidate, getCandidate } from '../candidates/candidates.queries.js';
import { getInterviewRow, insertInterview } from '../interviews/interviews.queries.js';
import { isOpen } from '../interviews/status.js';
import type { InviteTokens } from '../interviews/invite-token.js';
import { getFlow } from './flows.queries.js';

// The pipeline of a hiring flow (PRODUCT.md §7): who is enrolled, in which stage, and the moves.

type Stage = HiringFlow['stages'][number];

function toEnrollment(row: Selectable<EnrollmentsTable>): Enrollment {
  return {
    id: row.id,
    flowId: row.flow_id,
    candidateId: row.candidate_id,
    stageId: row.stage_id,
    status: row.status,
    interviewId: row.interview_id,
    enrolledAt: row.enrolled_at.toISOString(),
    movedAt: row.moved_at.toISOString(),
  };
}

/**
 * Entering an ai_interview stage schedules an interview for the flow's position in the caller's
 * transaction, unless the enrollment's interview is still open (moving back and forth does not
 * send the candidate a second invite). Returns the enrollment's interview id after the move.
 */
async function interviewOnEntering(trx: Db, tokens: InviteTokens, organizationId: string, flow: HiringFlow, stage: Stage, candidate: { email: string }, current: string | null) {
  if (stage.kind !== 'ai_interview' || !flow.positionId) return current;
  if (current && isOpen(await getInterviewRow(trx, organizationId, current))) return current;
  const interview = await insertInterview(trx, tokens, organizationId, { candidate: { email: candidate.email }, positionId: flow.positionId, duration: 30, expiresInDays: 14 });
  return interview.id;
}

/**
 * Enrolls a candidate (by id, or found or created by e-mail) into the flow's first stage.
 * Twice is 409 already_enrolled, but a repeat of the Idempotency-Key scope of POST
 * /hiring-flows/{id}/candidates returns the enrollment it made (createOnce). Entering an
 * ai_interview stage schedules the interview in the same transaction.
 */
export function enroll(db: Kysely<RecruitingDB>, tokens: InviteTokens, organizationId: string, flowId: string, body: EnrollBody, idempotencyScope: string | null): Promise<Enrollment> {
  return db.transaction().execute((trx) => createOnce(trx, SCHEMA, idempotencyScope, () => enrollOnce(trx, tokens, organizationId, flowId, body), (id) => getEnrollment(trx, organizationId, id)));
}

/** An enrollment whose candidate is not erased: an erased person's is 404 (PRODUCT.md §7), also to a repeat of its Idempotency-Key scope. */
async function getEnrollment(db: Db, organizationId: string, id: string): Promise<Enrollment> {
  const row = await db
    .selectFrom('recruiting.enrollments as e')
    .innerJoin('recruiting.candidates as c', 'c.id', 'e.candidate_id')
    .selectAll('e')
    .where('e.organization_id', '=', organizationId)
    .where('e.id', '=', id)
    .where('c.erased_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw new AppError('not_found', `No enrollment ${id}.`);
  return toEnrollment(row);
}

async function enrollOnce(trx: Db, tokens: InviteTokens, organizationId: string, flowId: string, body: EnrollBody): Promise<Enrollment> {
  const flow = await getFlow(trx, organizationId, flowId, 'share');
  const candidate = await candidateToEnroll(trx, organizationId, body);
  const stage = flow.stages[0]!;
  const now = new Date();
  const inserted = await trx
    .insertInto('recruiting.enrollments')
    .values({ id: newId(ID_PREFIXES.enrollment, now.getTime()), organization_id: organizationId, flow_id: flow.id, candidate_id: candidate.id, stage_id: stage.id, status: 'active', enrolled_at: now, moved_at: now })
    .onConflict((oc) => oc.columns(['flow_id', 'candidate_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw new AppError('already_enrolled', `Candidate ${candidate.id} is already enrolled in ${flow.id}.`);
  const interviewId = await interviewOnEntering(trx, tokens, organizationId, flow, stage, candidate, null);
  if (interviewId) await trx.updateTable('recruiting.enrollments').set({ interview_id: interviewId }).where('id', '=', inserted.id).execute();
  const enrollment = toEnrollment({ ...inserted, interview_id: interviewId });
  await recordEvent(trx, SCHEMA, organizationId, 'hiring_flow.candidate_enrolled', enrollment);
  await recordAudit(trx, SCHEMA, organizationId, 'hiring_flow.candidate_enrolled', { type: 'enrollment', id: enrollment.id });
  return enrollment;
}

/**
 * The candidate an enrolment names, held FOR SHARE until it commits: an erasure running at the
 * same time either waits for the enrolment (and then erases it too), or is seen by it. By id, an
 * erased candidate is 404. By e-mail, one erased while this request found it is not that person
 * any more: the e-mail is looked up again, and names a new candidate (PRODUCT.md §7).
 */
async function candidateToEnroll(trx: Db, organizationId: string, body: EnrollBody) {
  if ('candidateId' in body) return getCandidate(trx, organizationId, body.candidateId, true);
  const found = await findOrCreateCandidate(trx, organizationId, body.candidate);
  try {
    return await getCandidate(trx, organizationId, found.id, true);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'not_found')) throw err;
    return getCandidate(trx, organizationId, (await findOrCreateCandidate(trx, organizationId, body.candidate)).id, true);
  }
}

/**
 * A flow's enrollments, newest first, each with its candidate for the console's cards; filters
 * `stageId` and `status`. An unknown flow is 404, a stage of another flow simply matches nothing.
 */
export async function listEnrollments(db: Db, codec: CursorCodec, organizationId: string, flowId: string, query: ListEnrollmentsQuery) {
  const { limit, cursor, ...filters } = query;
  await getFlow(db, organizationId, flowId);
  const context = { list: `enrollments:${flowId}`, organizationId, filters };
  let q = db
    .selectFrom('recruiting.enrollments as e')
    .innerJoin('recruiting.candidates as c', 'c.id', 'e.candidate_id')
    .selectAll('e')
    .select(['e.enrolled_at as created_at', 'c.email as candidate_email', 'c.name as candidate_name'])
    .where('e.organization_id', '=', organizationId)
    .where('e.flow_id', '=', flowId)
    // An erased candidate's enrollment stays as an anonymous row, out of every list (PRODUCT.md §7).
    .where('c.erased_at', 'is', null);
  if (filters.stageId) q = q.where('e.stage_id', '=', filters.stageId);
  if (filters.status) q = q.where('e.status', '=', filters.status);
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context), 'e', 'enrolled_at'));
  const rows = await q.orderBy('e.enrolled_at', 'desc').orderBy('e.id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  const items: EnrollmentCard[] = page.items.map((r) => ({ ...toEnrollment(r), candidate: { id: r.candidate_id, email: r.candidate_email, name: r.candidate_name } }));
  return { items, nextCursor: page.nextCursor };
}

/**
 * PATCH /hiring-flows/{id}/candidates/{enrollmentId}: `{stageId}` moves an active enrollment to
 * another stage of its flow (422 for a stage the flow does not have); `{status}` ends it. An ended
 * enrollment is 409 enrollment_ended, except that asking again for the status it already has
 * answers it unchanged (a retried PATCH is harmless), as does a move to its current stage. Each
 * change records `hiring_flow.candidate_moved` in the same transaction; the row is locked, so
 * concurrent moves apply one after the other.
 */
export function moveEnrollment(db: Kysely<RecruitingDB>, tokens: InviteTokens, organizationId: string, flowId: string, enrollmentId: string, move: MoveEnrollmentBody): Promise<Enrollment> {
  return db.transaction().execute(async (trx) => {
    const flow = await getFlow(trx, organizationId, flowId);
    const row = await trx
      .selectFrom('recruiting.enrollments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('flow_id', '=', flow.id)
      .where('id', '=', enrollmentId)
      .where((eb) => eb.exists(eb.selectFrom('recruiting.candidates as c').select('c.id').whereRef('c.id', '=', 'recruiting.enrollments.candidate_id').where('c.erased_at', 'is', null)))
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new AppError('not_found', `No enrollment ${enrollmentId} in ${flow.id}.`);
    const stage = move.stageId === undefined ? undefined : flow.stages.find((s) => s.id === move.stageId);
    if (move.stageId !== undefined && !stage) {
      throw new AppError('validation_failed', `Flow ${flow.id} has no stage ${move.stageId}.`, [{ path: 'stageId', message: 'not a stage of this flow' }]);
    }
    // The stage or status it already has: answered unchanged, ended or not (no event; the audit
    // trail records every accepted PATCH, docs/api.md).
    const unchanged = stage ? row.stage_id === stage.id : row.status === move.status;
    if (unchanged) {
      await recordAudit(trx, SCHEMA, organizationId, 'hiring_flow.candidate_moved', { type: 'enrollment', id: row.id });
      return toEnrollment(row);
    }
    if (row.status !== 'active') throw new AppError('enrollment_ended', `Enrollment ${row.id} is ${row.status}; it can no longer move.`);
    const now = new Date();
    const change = stage
      ? { stage_id: stage.id, interview_id: await interviewOnEntering(trx, tokens, organizationId, flow, stage, await getCandidate(trx, organizationId, row.candidate_id, true), row.interview_id) }
      : { status: move.status! };
    const updated = await trx
      .updateTable('recruiting.enrollments')
      .set({ ...change, moved_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const enrollment = toEnrollment(updated);
    await recordEvent(trx, SCHEMA, organizationId, 'hiring_flow.candidate_moved', enrollment);
    await recordAudit(trx, SCHEMA, organizationId, 'hiring_flow.candidate_moved', { type: 'enrollment', id: enrollment.id });
    return enrollment;
  });
}

/**
 * A candidate's enrollments in every flow, newest first, each with its flow's name and its
 * stage (the console's candidate profile). An unknown candidate is 404.
 */
export async function listCandidateEnrollments(db: Db, codec: CursorCodec, organizationId: string, query: ListCandidateEnrollmentsQuery) {
  const { limit, cursor, ...filters } = query;
  await getCandidate(db, organizationId, filters.candidateId);
  const context = { list: 'candidate-enrollments', organizationId, filters };
  let q = db
    .selectFrom('recruiting.enrollments as e')
    .innerJoin('recruiting.hiring_flows as f', 'f.id', 'e.flow_id')
    .innerJoin('recruiting.flow_stages as s', 's.id', 'e.stage_id')
    .selectAll('e')
    .select(['e.enrolled_at as created_at', 'f.name as flow_name', 's.name as stage_name', 's.kind as stage_kind'])
    .where('e.organization_id', '=', organizationId)
    .where('e.candidate_id', '=', filters.candidateId);
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context), 'e', 'enrolled_at'));
  const rows = await q.orderBy('e.enrolled_at', 'desc').orderBy('e.id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  const items: CandidateEnrollment[] = page.items.map((r) => ({
    ...toEnrollment(r),
    flow: { id: r.flow_id, name: r.flow_name },
    stage: { id: r.stage_id, name: r.stage_name, kind: r.stage_kind },
  }));
  return { items, nextCursor: page.nextCursor };
}
