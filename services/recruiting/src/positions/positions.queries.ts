import { isDeepStrictEqual } from 'node:util';
import { AppError, changedSince, isoMicros, createOnce, newId, olderThan, recordAudit, recordEvent, toPage, toSyncPage, updatedAtMicros, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type CreatePositionBody, type ListPositionsQuery, type Position, type UpdatePositionBody } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type PositionsTable, type RecruitingDB } from '../db.js';
import { DEFAULT_RUBRIC_COMPETENCIES } from './default-rubric.js';
import { checkQuestionsFit, insertRubricVersion, normalizedCompetencies, questionsFromTexts, resolveQuestions, type RubricState } from './rubric.js';

/** A value as JSON would carry it (no `undefined` fields), to compare with what jsonb gave back. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** `questions` and a non-empty `interviewQuestions` in one body: which one is meant? 422. */
function refuseBothQuestionFields(input: { questions?: unknown; interviewQuestions?: string[] | undefined }) {
  if (input.questions !== undefined && input.interviewQuestions !== undefined && input.interviewQuestions.length > 0) {
    throw new AppError('validation_failed', 'Give either questions or interviewQuestions, not both.', [{ path: 'interviewQuestions', message: 'give either questions or interviewQuestions' }]);
  }
}

export function toPosition(row: Selectable<PositionsTable>): Position {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    department: row.department,
    location: row.location,
    employmentType: row.employment_type as Position['employmentType'],
    status: row.status,
    externalId: row.external_id,
    interviewQuestions: row.questions.map((q) => q.text),
    rubric: { version: row.rubric_version, competencies: normalizedCompetencies(row.competencies) },
    questions: row.questions,
    createdAt: row.created_at.toISOString(),
    updatedAt: isoMicros(row.updated_at),
  };
}

/** A position; `forShare` holds off a concurrent close until the caller commits (new interviews). */
export async function getPositionRow(db: Db, organizationId: string, id: string, forShare = false) {
  let q = db.selectFrom('recruiting.positions').selectAll().where('organization_id', '=', organizationId).where('id', '=', id);
  if (forShare) q = q.forShare();
  const row = await q.executeTakeFirst();
  if (!row) throw new AppError('not_found', `No position ${id}.`);
  return row;
}

/**
 * Inserts a position and its `position.created` event, or returns null when one with this source
 * and externalId exists (a parallel insert of the same one waits for the winner, then yields).
 */
export async function tryInsertPosition(trx: Db, organizationId: string, input: CreatePositionBody & { source?: string }): Promise<Position | null> {
  refuseBothQuestionFields(input);
  const now = new Date();
  const competencies = normalizedCompetencies(input.rubric?.competencies ?? DEFAULT_RUBRIC_COMPETENCIES);
  const questions = input.questions ? resolveQuestions(input.questions, [], competencies) : questionsFromTexts(input.interviewQuestions, []);
  const rubric: RubricState = { version: 1, competencies, questions };
  const row = await trx
    .insertInto('recruiting.positions')
    .values({
      id: newId(ID_PREFIXES.position, now.getTime()),
      organization_id: organizationId,
      title: input.title,
      description: input.description ?? null,
      department: input.department ?? null,
      location: input.location ?? null,
      employment_type: input.employmentType,
      status: input.status,
      external_id: input.externalId ?? null,
      ...(input.source ? { source: input.source } : {}),
      rubric_version: rubric.version,
      competencies: JSON.stringify(rubric.competencies),
      questions: JSON.stringify(rubric.questions),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  await insertRubricVersion(trx, organizationId, row.id, rubric, now);
  const position = toPosition(row);
  await recordEvent(trx, SCHEMA, organizationId, 'position.created', position);
  // Here, not in the route: a position made by an ATS event is audited too.
  await recordAudit(trx, SCHEMA, organizationId, 'position.created', { type: 'position', id: position.id });
  return position;
}

export async function insertPosition(trx: Db, organizationId: string, input: CreatePositionBody & { source?: string }): Promise<Position> {
  const position = await tryInsertPosition(trx, organizationId, input);
  if (!position) throw new AppError('external_id_exists', `A position with externalId ${input.externalId} already exists.`, [{ path: 'externalId', message: 'already used' }]);
  return position;
}

/** POST /positions; a repeat of its Idempotency-Key scope returns the position it made (createOnce). */
export function createPosition(db: Kysely<RecruitingDB>, organizationId: string, input: CreatePositionBody, idempotencyScope: string | null): Promise<Position> {
  return db.transaction().execute((trx) =>
    createOnce(trx, SCHEMA, idempotencyScope, () => insertPosition(trx, organizationId, input), async (id) => toPosition(await getPositionRow(trx, organizationId, id))));
}

/**
 * The rubric and questions after a change: the rubric and the questions (as `questions` or as
 * `interviewQuestions`) each replace the current ones; a new version when anything differs.
 */
function nextRubric(current: Selectable<PositionsTable>, change: UpdatePositionBody): RubricState {
  refuseBothQuestionFields(change);
  const competencies = change.rubric ? normalizedCompetencies(change.rubric.competencies) : current.competencies;
  let questions = current.questions;
  if (change.questions) questions = resolveQuestions(change.questions, current.questions, competencies);
  else {
    if (change.interviewQuestions) questions = questionsFromTexts(change.interviewQuestions, current.questions);
    // A question kept by its text keeps its competencies: the new rubric must still have them.
    if (change.rubric) checkQuestionsFit(questions, competencies, change.interviewQuestions ? 'interviewQuestions' : 'questions');
  }
  // Compared as values: jsonb gives the stored objects back with their keys in its own order.
  const same = isDeepStrictEqual(asJson({ c: competencies, q: questions }), asJson({ c: current.competencies, q: current.questions }));
  return { version: same ? current.rubric_version : current.rubric_version + 1, competencies, questions };
}

/**
 * A rubric sent with the version it was read at, after someone else changed the rubric or the
 * questions: applying it would undo their change unseen (a lost update), so it is refused.
 */
function refuseStaleRubric(current: Selectable<PositionsTable>, change: UpdatePositionBody): void {
  const readAt = change.rubric?.version;
  if (readAt === undefined || readAt === current.rubric_version) return;
  throw new AppError(
    'conflict',
    `The rubric is at version ${current.rubric_version}, and this change was made from version ${readAt}: it changed since it was read. Read the position again and reapply the change.`,
  );
}

/**
 * PATCH /positions/{id}: any field, `status` included, with `position.updated` in the same
 * transaction. Closing stops new interviews (insertInterview reads the status under the same
 * row lock); interviews already scheduled go on. A change of the rubric or the questions makes a
 * new rubric version; interviews scheduled before keep the one they pinned. A change that
 * changes nothing records no event.
 */
export function updatePosition(db: Kysely<RecruitingDB>, organizationId: string, id: string, change: UpdatePositionBody): Promise<Position> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('recruiting.positions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw new AppError('not_found', `No position ${id}.`);
    refuseStaleRubric(current, change);
    await recordAudit(trx, SCHEMA, organizationId, 'position.updated', { type: 'position', id });
    const next = {
      title: change.title ?? current.title,
      description: change.description === undefined ? current.description : change.description,
      department: change.department === undefined ? current.department : change.department,
      location: change.location === undefined ? current.location : change.location,
      employment_type: change.employmentType ?? current.employment_type,
      status: change.status ?? current.status,
      external_id: change.externalId === undefined ? current.external_id : change.externalId,
    };
    const rubric = nextRubric(current, change);
    const unchanged = rubric.version === current.rubric_version && (Object.keys(next) as (keyof typeof next)[]).every((k) => JSON.stringify(next[k]) === JSON.stringify(current[k]));
    if (unchanged) return toPosition(current);
    if (next.external_id !== null && next.external_id !== current.external_id) {
      const taken = await trx
        .selectFrom('recruiting.positions')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('source', '=', current.source)
        .where('external_id', '=', next.external_id)
        .executeTakeFirst();
      if (taken) throw new AppError('external_id_exists', `A position with externalId ${next.external_id} already exists.`, [{ path: 'externalId', message: 'already used' }]);
    }
    const row = await trx
      .updateTable('recruiting.positions')
      .set({ ...next, rubric_version: rubric.version, competencies: JSON.stringify(rubric.competencies), questions: JSON.stringify(rubric.questions), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (rubric.version !== current.rubric_version) await insertRubricVersion(trx, organizationId, id, rubric, row.updated_at);
    const position = toPosition(row);
    await recordEvent(trx, SCHEMA, organizationId, 'position.updated', position);
    return position;
  });
}

export async function listPositions(db: Db, codec: CursorCodec, organizationId: string, query: ListPositionsQuery, syncLagMs: number) {
  const { limit, cursor, ...filters } = query;
  const context = { list: 'positions', organizationId, filters };
  let q = db.selectFrom('recruiting.positions').selectAll().where('organization_id', '=', organizationId);
  if (filters.status) q = q.where('status', '=', filters.status);
  if (filters.updatedAfter) {
    const position = cursor ? codec.decodeSync(cursor, context) : undefined;
    const rows = await q.select(updatedAtMicros()).where(changedSince(filters.updatedAfter, position, syncLagMs)).orderBy('updated_at').orderBy('id').limit(limit + 1).execute();
    const page = toSyncPage(rows, limit, codec, context);
    return { items: page.items.map(toPosition), nextCursor: page.nextCursor };
  }
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  return { items: page.items.map(toPosition), nextCursor: page.nextCursor };
}

/** Writes an AI-generated job description into a position (console, from a succeeded task). */
export function applyJobDescription(db: Kysely<RecruitingDB>, organizationId: string, id: string, description: string): Promise<Position> {
  return updatePosition(db, organizationId, id, { description });
}
