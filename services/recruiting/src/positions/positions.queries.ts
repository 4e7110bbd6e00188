import { AppError, changedSince, isoMicros, createOnce, newId, olderThan, recordAudit, recordEvent, toPage, toSyncPage, updatedAtMicros, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type CreatePositionBody, type ListPositionsQuery, type Position, type UpdatePositionBody } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type Db, type PositionsTable, type RecruitingDB } from '../db.js';

/** Asked when a position has no questions of its own (PRODUCT.md §7). */
export const DEFAULT_INTERVIEW_QUESTIONS = [
  'Tell us about yourself and what draws you to this role.',
  'Describe a recent project you are proud of and your part in it.',
  'Tell us about a time you disagreed with a colleague. How did you resolve it?',
  'What would you want to learn or achieve in your first six months here?',
];

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
    interviewQuestions: row.interview_questions,
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
  const now = new Date();
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
      interview_questions: JSON.stringify(input.interviewQuestions),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  const position = toPosition(row);
  await recordEvent(trx, SCHEMA, organizationId, 'position.created', position);
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
    createOnce(trx, SCHEMA, idempotencyScope, async () => {
      const position = await insertPosition(trx, organizationId, input);
      await recordAudit(trx, SCHEMA, organizationId, 'position.created', { type: 'position', id: position.id });
      return position;
    }, async (id) => toPosition(await getPositionRow(trx, organizationId, id))));
}

/**
 * PATCH /positions/{id}: any field, `status` included, with `position.updated` in the same
 * transaction. Closing stops new interviews (insertInterview reads the status under the same
 * row lock); interviews already scheduled go on. A change that changes nothing records no event.
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
    await recordAudit(trx, SCHEMA, organizationId, 'position.updated', { type: 'position', id });
    const next = {
      title: change.title ?? current.title,
      description: change.description === undefined ? current.description : change.description,
      department: change.department === undefined ? current.department : change.department,
      location: change.location === undefined ? current.location : change.location,
      employment_type: change.employmentType ?? current.employment_type,
      status: change.status ?? current.status,
      external_id: change.externalId === undefined ? current.external_id : change.externalId,
      interview_questions: change.interviewQuestions ?? current.interview_questions,
    };
    const unchanged = (Object.keys(next) as (keyof typeof next)[]).every((k) => JSON.stringify(next[k]) === JSON.stringify(current[k]));
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
      .set({ ...next, interview_questions: JSON.stringify(next.interview_questions), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
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
