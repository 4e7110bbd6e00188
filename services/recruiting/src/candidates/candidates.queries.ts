import { AppError, changedSince, isoMicros, createOnce, newId, olderThan, recordAudit, recordEvent, sql, toPage, toSyncPage, uniqueViolationOf, updatedAtMicros, type CursorCodec, type Kysely } from '@hireloop/platform';
import { ID_PREFIXES, METADATA_MAX_KEYS, type Candidate, type CreateCandidateBody, type SearchCandidatesQuery, type UpdateCandidateBody } from '@hireloop/contracts';
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
    updatedAt: isoMicros(row.updated_at),
  };
}

export async function findCandidateByEmail(db: Db, organizationId: string, email: string) {
  return db
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('erased_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/**
 * A candidate who is not erased. `forShare` holds the row until the caller's transaction ends, so
 * an erasure (which takes it FOR UPDATE) waits for the caller, or the caller, having waited for
 * the erasure, finds no candidate (404).
 */
export async function getCandidate(db: Db, organizationId: string, id: string, forShare = false): Promise<Candidate> {
  const query = db.selectFrom('recruiting.candidates').selectAll().where('organization_id', '=', organizationId).where('id', '=', id).where('erased_at', 'is', null);
  const row = await (forShare ? query.forShare() : query).executeTakeFirst();
  if (!row) throw new AppError('not_found', `No candidate ${id}.`);
  return toCandidate(row);
}

/**
 * Inserts a candidate and its `candidate.created` event in the caller's transaction, or returns
 * null when one with this e-mail (or this source and externalId) exists. ON CONFLICT DO NOTHING
 * waits for a concurrent insert of the same key to commit and never aborts the transaction, so a
 * caller that loses a race can read the winner in its next statement (READ COMMITTED).
 */
export async function tryInsertCandidate(trx: Db, organizationId: string, input: CreateCandidateBody & { source?: string }): Promise<Candidate | null> {
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
  if (!row) return null;
  const candidate = toCandidate(row);
  await recordEvent(trx, SCHEMA, organizationId, 'candidate.created', candidate);
  // Here, not in the route: a candidate made by an enrollment, an interview or an ATS event is audited too.
  await recordAudit(trx, SCHEMA, organizationId, 'candidate.created', { type: 'candidate', id: candidate.id });
  return candidate;
}

/**
 * Inserts a candidate (POST /candidates): an e-mail already in the organization is 409
 * candidate_exists carrying the existing id.
 */
export async function insertCandidate(trx: Db, organizationId: string, input: CreateCandidateBody & { source?: string }): Promise<Candidate> {
  const candidate = await tryInsertCandidate(trx, organizationId, input);
  if (candidate) return candidate;
  const existing = await findCandidateByEmail(trx, organizationId, input.email);
  if (existing) throw new AppError('candidate_exists', 'A candidate with this e-mail already exists; its id is in candidateId.', undefined, { candidateId: existing.id });
  throw new AppError('external_id_exists', `A candidate with externalId ${input.externalId} already exists.`, [{ path: 'externalId', message: 'already used' }]);
}

/**
 * The candidate with this e-mail, created when there is none (then a name is required). Parallel
 * calls for the same new e-mail all get the one candidate that won the insert (PRODUCT.md §7).
 */
export async function findOrCreateCandidate(trx: Db, organizationId: string, who: { email: string; name?: string }): Promise<{ id: string; email: string; name: string }> {
  const existing = await findCandidateByEmail(trx, organizationId, who.email);
  if (existing) return existing;
  if (!who.name) {
    throw new AppError('validation_failed', 'No candidate has this e-mail yet; give candidate.name to create one.', [
      { path: 'candidate.name', message: 'required when the candidate does not exist yet' },
    ]);
  }
  const created = await tryInsertCandidate(trx, organizationId, { email: who.email, name: who.name });
  if (created) return created;
  const winner = await findCandidateByEmail(trx, organizationId, who.email);
  if (winner) return winner;
  throw new AppError('conflict', 'The candidate changed while this request ran; retry it.');
}

/**
 * Applies a change to a candidate and records `candidate.updated`, in the caller's transaction:
 * the one update path of PATCH /candidates/{id} and of ATS `candidate.updated` events. Metadata
 * merges (a `null` value removes the key); an e-mail another candidate holds is 409
 * candidate_exists with that candidate's id. A change that changes nothing records no event.
 */
export async function updateCandidateRow(trx: Db, organizationId: string, id: string, change: UpdateCandidateBody & { source?: string }): Promise<Candidate> {
  const current = await trx
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('erased_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  if (!current) throw new AppError('not_found', `No candidate ${id}.`);
  if (change.email !== undefined && change.email.toLowerCase() !== current.email.toLowerCase()) {
    const holder = await findCandidateByEmail(trx, organizationId, change.email);
    if (holder) throw new AppError('candidate_exists', 'A candidate with this e-mail already exists; its id is in candidateId.', undefined, { candidateId: holder.id });
  }
  // A Map, not a `{}`: the keys are the client's, and `__proto__` assigned to an object would set
  // its prototype instead of storing a key (issue 18 item 2; the contract refuses that key too).
  const merged = new Map(Object.entries(current.metadata));
  for (const [key, value] of Object.entries(change.metadata ?? {})) {
    if (value === null) merged.delete(key);
    else merged.set(key, value);
  }
  const metadata = Object.fromEntries(merged);
  if (merged.size > METADATA_MAX_KEYS) {
    throw new AppError('validation_failed', `A candidate has at most ${METADATA_MAX_KEYS} metadata keys.`, [{ path: 'metadata', message: `at most ${METADATA_MAX_KEYS} keys` }]);
  }
  const next = {
    email: change.email ?? current.email,
    name: change.name ?? current.name,
    phone: change.phone === undefined ? current.phone : change.phone,
    external_id: change.externalId === undefined ? current.external_id : change.externalId,
    source: change.source ?? current.source,
    metadata,
  };
  const unchanged =
    next.email === current.email && next.name === current.name && next.phone === current.phone && next.external_id === current.external_id &&
    next.source === current.source && JSON.stringify(next.metadata) === JSON.stringify(current.metadata);
  // Every accepted update is audited, one that changes nothing too; whoever asked for it (the
  // API, the console, an ATS event).
  const audited = () => recordAudit(trx, SCHEMA, organizationId, 'candidate.updated', { type: 'candidate', id });
  if (unchanged) {
    await audited();
    return toCandidate(current);
  }
  if (next.external_id !== null && (next.external_id !== current.external_id || next.source !== current.source)) {
    const taken = await trx
      .selectFrom('recruiting.candidates')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('source', '=', next.source)
      .where('external_id', '=', next.external_id)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (taken) throw new AppError('external_id_exists', `A candidate with externalId ${next.external_id} already exists.`, [{ path: 'externalId', message: 'already used' }]);
  }
  const row = await trx
    .updateTable('recruiting.candidates')
    .set({ ...next, metadata: JSON.stringify(metadata), updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (next.email !== current.email || next.name !== current.name) {
    // Interviews show their candidate's e-mail and name: they changed too, for `updatedAfter`.
    await trx.updateTable('recruiting.interviews').set({ updated_at: new Date() }).where('organization_id', '=', organizationId).where('candidate_id', '=', id).execute();
  }
  const candidate = toCandidate(row);
  await recordEvent(trx, SCHEMA, organizationId, 'candidate.updated', candidate);
  await audited();
  return candidate;
}

export async function updateCandidate(db: Kysely<RecruitingDB>, organizationId: string, id: string, change: UpdateCandidateBody): Promise<Candidate> {
  try {
    return await db.transaction().execute((trx) => updateCandidateRow(trx, organizationId, id, change));
  } catch (err) {
    throw await lostUniqueRace(db, organizationId, change, err);
  }
}

/**
 * Two PATCHes giving two candidates the same e-mail (or externalId) at once both pass the check
 * in updateCandidateRow, and the unique index refuses the later write: the 409 the check would
 * have given, with the winner's id (issue 18 item 4), never a 500. The transaction rolled back,
 * so the winner, committed by then, is read outside it. Any other error passes unchanged.
 */
async function lostUniqueRace(db: Db, organizationId: string, change: UpdateCandidateBody, err: unknown): Promise<unknown> {
  const index = uniqueViolationOf(err);
  if (index === 'candidates_org_email' && change.email !== undefined) {
    const holder = await findCandidateByEmail(db, organizationId, change.email);
    if (holder) return new AppError('candidate_exists', 'A candidate with this e-mail already exists; its id is in candidateId.', undefined, { candidateId: holder.id });
    return new AppError('conflict', 'Another request changed a candidate with this e-mail while this one ran; retry it.');
  }
  if (index === 'candidates_org_source_external') {
    return new AppError('external_id_exists', `A candidate with externalId ${change.externalId ?? ''} already exists.`, [{ path: 'externalId', message: 'already used' }]);
  }
  return err;
}

/** POST /candidates; a repeat of its Idempotency-Key scope returns the candidate it made (createOnce). */
export function createCandidate(db: Kysely<RecruitingDB>, organizationId: string, input: CreateCandidateBody, idempotencyScope: string | null): Promise<Candidate> {
  return db.transaction().execute((trx) =>
    createOnce(trx, SCHEMA, idempotencyScope, () => insertCandidate(trx, organizationId, input), (id) => getCandidate(trx, organizationId, id)));
}

/**
 * The candidates list: REST's filters, and the console's `search` (word prefixes of name or
 * e-mail, on the `candidates_search` GIN index; migration 0011 defines the two functions).
 */
export async function listCandidates(db: Db, codec: CursorCodec, organizationId: string, query: SearchCandidatesQuery, syncLagMs: number) {
  const { limit, cursor, ...filters } = query;
  const context = { list: 'candidates', organizationId, filters };
  // Erased candidates are in no list; their tombstone is the `candidate.erased` event (PRODUCT.md §5).
  let q = db.selectFrom('recruiting.candidates').selectAll().where('organization_id', '=', organizationId).where('erased_at', 'is', null);
  if (filters.email) q = q.where((eb) => eb(eb.fn('lower', ['email']), '=', filters.email!.toLowerCase()));
  if (filters.externalId) q = q.where('external_id', '=', filters.externalId);
  if (filters.createdAfter) q = q.where('created_at', '>', new Date(filters.createdAfter));
  if (filters.createdBefore) q = q.where('created_at', '<', new Date(filters.createdBefore));
  if (filters.search) q = q.where(sql<boolean>`recruiting.candidate_search_document(name, email) @@ recruiting.candidate_search_query(${filters.search})`);
  if (filters.updatedAfter) {
    const position = cursor ? codec.decodeSync(cursor, context) : undefined;
    const rows = await q.select(updatedAtMicros()).where(changedSince(filters.updatedAfter, position, syncLagMs)).orderBy('updated_at').orderBy('id').limit(limit + 1).execute();
    const page = toSyncPage(rows, limit, codec, context);
    return { items: page.items.map(toCandidate), nextCursor: page.nextCursor };
  }
  if (cursor) q = q.where(olderThan(codec.decode(cursor, context)));
  const rows = await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
  const page = toPage(rows, limit, codec, context);
  return { items: page.items.map(toCandidate), nextCursor: page.nextCursor };
}
