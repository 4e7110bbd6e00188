import { AppError, newId, olderThan, recordEvent, toPage, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, type Candidate, type CreateCandidateBody, type ListCandidatesQuery } from '@hireloop/contracts';
import type { Selectable } from 'kysely';
import { SCHEMA, type CandidatesTable, type Db, type RecruitingDB } from '../db.js';

export function toCandidate(row: Selectable<CandidatesTable>): Candidate {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    externalId: row.external_id,
    metadata: row.metadata,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function findCandidateByEmail(db: Db, organizationId: string, email: string) {
  return db
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function getCandidate(db: Db, organizationId: string, id: string): Promise<Candidate> {
  const row = await db.selectFrom('recruiting.candidates').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No candidate ${id}.`);
  return toCandidate(row);
}

/**
 * Inserts a candidate and its `candidate.created` event in the caller's transaction.
 * Conflicts are detected without aborting the transaction (ON CONFLICT DO NOTHING): an e-mail
 * already in the organization is 409 candidate_exists carrying the existing id.
 */
export async function insertCandidate(trx: Db, organizationId: string, input: CreateCandidateBody & { source?: string }): Promise<Candidate> {
  const now = new Date();
  const row = await trx
    .insertInto('recruiting.candidates')
    .values({
      id: newId(ID_PREFIXES.candidate, now.getTime()),
      organization_id: organizationId,
      email: input.email,
      name: input.name,
      phone: input.phone ?? null,
      external_id: input.externalId ?? null,
      ...(input.source ? { source: input.source } : {}),
      metadata: JSON.stringify(input.metadata ?? {}),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    const existing = await findCandidateByEmail(trx, organizationId, input.email);
    if (existing) throw new AppError('candidate_exists', `A candidate with e-mail ${input.email} already exists.`, undefined, { candidateId: existing.id });
    throw new AppError('external_id_exists', `A candidate with externalId ${input.externalId} already exists.`, [{ path: 'externalId', message: 'already used' }]);
  }
  const candidate = toCandidate(row);
  await recordEvent(trx, SCHEMA, organizationId, 'candidate.created', candidate);
  return candidate;
}

export function createCandidate(db: Kysely<RecruitingDB>, organizationId: string, input: CreateCandidateBody): Promise<Candidate> {
  return db.transaction().execute((trx) => insertCandidate(trx, organizationId, input));
}

export async function listCandidates(db: Db, codec: CursorCodec, organizationId: string, query: ListCandidatesQuery) {
  const { limit, cursor, ...filters } = query;
  const context = { list: 'candidates', organizationId, filters };
  let q = db.selectFrom('recruiting.candidates').selectAll().where('organization_id', '=', organizationId);
  if (filters.email) q = q.where((eb) => eb(eb.fn('lower', ['email']), '=', filters.email!.toLowerCase()));
  if (filters.externalId) q = q.where('external_id', '=', filters.externalId);
  if (filters.createdAfter) q = q.where('created_at', '>', new Date(filters.createdAfter));
  if (filters.createdBefore) q = q.where('created_at', '<', new Date(filters.createdBefore));
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  return { items: page.items.map(toCandidate), nextCursor: page.nextCursor };
}
