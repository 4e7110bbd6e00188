import { AppError, recordAudit, sql, type Kysely } from '@hireloop/platform';
import { firstCharacters, type AtsEventBody, type Candidate, type CreatePositionBody } from '@hireloop/contracts';
import { SCHEMA, type Db, type RecruitingDB } from '../db.js';
import { findCandidateByEmail, getCandidate, insertCandidate, toCandidate, tryInsertCandidate, updateCandidateRow } from '../candidates/candidates.queries.js';
import { isOpen } from '../interviews/status.js';
import { insertPosition, tryInsertPosition } from '../positions/positions.queries.js';
import { cancelOpenInterviewsFor, insertInterview } from '../interviews/interviews.queries.js';
import { applicationSubject, candidateSubject, markLatest, type ApplicationClosed } from './ats-order.js';
import type { InviteTokens } from '../interviews/invite-token.js';

/** Stages that, when an application enters them, schedule an AI interview (set in the console). */
export async function setStageMappings(db: Kysely<RecruitingDB>, organizationId: string, source: string, stages: string[]) {
  // Stage names match case-insensitively and in any Unicode form: stored as their key, once each.
  const stored = [...new Set(stages.map(stageKey))];
  await db.transaction().execute(async (trx) => {
    // One replace at a time per source: two at once each deleted only the rows committed before
    // them, and stored the union of both lists (or failed on a name both inserted).
    await sql`select pg_advisory_xact_lock(hashtextextended(${`ats-stage-mappings:${organizationId}:${source}`}, 0))`.execute(trx);
    await trx.deleteFrom('recruiting.ats_stage_mappings').where('organization_id', '=', organizationId).where('source', '=', source).execute();
    if (stored.length) {
      await trx
        .insertInto('recruiting.ats_stage_mappings')
        .values(stored.map((stage) => ({ organization_id: organizationId, source, stage, action: 'ai_interview' as const })))
        .execute();
    }
    await recordAudit(trx, SCHEMA, organizationId, 'ats.stage_mappings_set', { type: 'ats_stage_mappings', id: source });
  });
  return { source, stages: stored };
}

/** Every source's mapped stages, by source name (the console shows them before editing). */
export async function listStageMappings(db: Kysely<RecruitingDB>, organizationId: string, maxSources: number) {
  const rows = await db
    .selectFrom('recruiting.ats_stage_mappings')
    .select(['source', 'stage'])
    .where('organization_id', '=', organizationId)
    .where('action', '=', 'ai_interview')
    .orderBy('source')
    .orderBy('stage')
    .execute();
  const bySource = new Map<string, string[]>();
  for (const row of rows) bySource.set(row.source, [...(bySource.get(row.source) ?? []), row.stage]);
  return { items: [...bySource].slice(0, maxSources).map(([source, stages]) => ({ source, stages })) };
}

/**
 * Matches the event's candidate by (source, externalId), then by e-mail, else creates it. When a
 * parallel event for the same new candidate wins the insert, the match runs once more and finds
 * the winner, so events about one new person never fail for arriving together. `ours`: the
 * candidate carries this event's (source, externalId) (matched by it, linked to it, or created
 * with it); one matched by e-mail that holds another external id is not the ATS's to change.
 */
async function matchCandidate(trx: Db, organizationId: string, source: string, c: AtsEventBody['candidate'], lostRace = false): Promise<{ candidate: Candidate; action: 'created' | 'matched' | 'linked'; ours: boolean }> {
  const bySource = await trx
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('source', '=', source)
    .where('external_id', '=', c.externalId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (bySource) return { candidate: toCandidate(bySource), action: 'matched', ours: true };
  if (c.email) {
    const byEmail = await findCandidateByEmail(trx, organizationId, c.email);
    if (byEmail) {
      if (byEmail.external_id !== null) return { candidate: toCandidate(byEmail), action: 'matched', ours: false };
      // Link the ATS's id to the candidate we already had, so later events that carry only the id find it.
      const linked = await updateCandidateRow(trx, organizationId, byEmail.id, { source, externalId: c.externalId });
      return { candidate: linked, action: 'linked', ours: true };
    }
  }
  if (!c.email || !c.name) {
    throw new AppError('validation_failed', `Candidate ${c.externalId} is unknown; its email and name are needed to create it.`, [{ path: 'candidate', message: 'email and name required for a new candidate' }]);
  }
  const input = { email: c.email, name: c.name, externalId: c.externalId, source };
  if (lostRace) return { candidate: await insertCandidate(trx, organizationId, input), action: 'created', ours: true };
  const created = await tryInsertCandidate(trx, organizationId, input);
  if (created) return { candidate: created, action: 'created', ours: true };
  return matchCandidate(trx, organizationId, source, c, true);
}

/** `candidate.updated`: the same update path as PATCH /candidates/{id} (e-mail uniqueness, `candidate.updated`). */
function updateFromAts(trx: Db, organizationId: string, candidateId: string, c: AtsEventBody['candidate']): Promise<Candidate> {
  return updateCandidateRow(trx, organizationId, candidateId, { name: c.name, email: c.email }).catch((err: unknown) => {
    // The API's message points at a `candidateId` field, which the processed event does not have: name the id here.
    if (!(err instanceof AppError && err.code === 'candidate_exists')) throw err;
    throw new AppError('candidate_exists', `The new e-mail of candidate ${c.externalId} belongs to another candidate, ${String(err.extra?.['candidateId'])}.`, undefined, err.extra);
  });
}

/** Matches the event's job by (source, externalId), else creates it (a parallel creator's row is matched). */
async function matchPosition(trx: Db, organizationId: string, source: string, job: NonNullable<AtsEventBody['job']>) {
  const find = () =>
    trx
      .selectFrom('recruiting.positions')
      .select(['id'])
      .where('organization_id', '=', organizationId)
      .where('source', '=', source)
      .where('external_id', '=', job.externalId)
      .executeTakeFirst();
  const existing = await find();
  if (existing) return { positionId: existing.id, action: 'matched' as const };
  const input: CreatePositionBody & { source: string } = {
    title: firstCharacters(job.title ?? `Position ${job.externalId}`, 200),
    externalId: job.externalId,
    source,
    employmentType: 'full_time',
    status: 'open',
    interviewQuestions: [],
  };
  const position = await tryInsertPosition(trx, organizationId, input);
  if (position) return { positionId: position.id, action: 'created' as const };
  const winner = await find();
  if (winner) return { positionId: winner.id, action: 'matched' as const };
  return { positionId: (await insertPosition(trx, organizationId, input)).id, action: 'created' as const };
}

/**
 * Stage names match case-insensitively and in any Unicode form: `Évaluation` composed or not,
 * `STRASSE`, `Straße` and `STRAẞE` (lower, upper, then lower case: the upper case of ß is SS).
 */
export function stageKey(stage: string): string {
  return stage.trim().normalize('NFKC').toLowerCase().toUpperCase().toLowerCase();
}

/**
 * Applies one ATS event (docs/api.md, "AI tasks and ATS events"), in one transaction:
 * - candidates and positions are matched or created by (source, externalId);
 * - an application created in, or moved into, a mapped stage schedules an AI interview, or
 *   reuses the one still open; a candidate who declined the AI interview for that position is
 *   not invited to another (PRODUCT.md §10: they asked for a person);
 * - an application rejected or hired cancels its open AI interviews;
 * - an event older (`occurredAt`) than one already applied about the same candidate or
 *   application changes nothing (`superseded`: ats-order.ts).
 */
export function applyAtsEvent(db: Kysely<RecruitingDB>, tokens: InviteTokens, organizationId: string, event: AtsEventBody) {
  return db.transaction().execute(async (trx) => {
    const mark = (subject: string, candidateId: string, closedAs?: ApplicationClosed | null) =>
      markLatest(trx, { organizationId, source: event.source, subject, candidateId, occurredAt: event.occurredAt, closedAs });
    const isCandidateEvent = event.type === 'candidate.created' || event.type === 'candidate.updated';
    const matched = await matchCandidate(trx, organizationId, event.source, event.candidate);
    let { candidate } = matched;
    let candidateAction: 'created' | 'matched' | 'linked' | 'updated' | 'superseded' = matched.action;
    let superseded = false;
    if (isCandidateEvent) {
      if (!(await mark(candidateSubject(candidate.id), candidate.id))) {
        superseded = true;
        if (event.type === 'candidate.updated') candidateAction = 'superseded';
      } else if (event.type === 'candidate.updated' && matched.ours && matched.action !== 'created' && (event.candidate.name || event.candidate.email)) {
        candidate = await updateFromAts(trx, organizationId, candidate.id, event.candidate);
        candidateAction = 'updated';
      }
    }
    const position = event.job ? await matchPosition(trx, organizationId, event.source, event.job) : null;
    let interviewId: string | null = null;
    let cancelledInterviewIds: string[] = [];
    if (position && !isCandidateEvent) {
      const closedAs = event.type === 'application.rejected' ? 'rejected' : event.type === 'application.hired' ? 'hired' : null;
      if (!(await mark(applicationSubject(candidate.id, position.positionId), candidate.id, closedAs))) superseded = true;
      else if (closedAs) {
        cancelledInterviewIds = await cancelOpenInterviewsFor(trx, tokens, organizationId, candidate.id, position.positionId, `The application was ${closedAs} in ${event.source}.`);
      } else if (event.application?.stage && (await isMappedStage(trx, organizationId, event.source, event.application.stage))) {
        interviewId = await interviewForStage(trx, tokens, organizationId, candidate, position.positionId);
      }
    }
    return {
      candidateId: candidate.id,
      candidateAction,
      positionId: position?.positionId ?? null,
      positionAction: position?.action ?? null,
      interviewId,
      cancelledInterviewIds,
      superseded,
    };
  });
}

async function isMappedStage(trx: Db, organizationId: string, source: string, stage: string): Promise<boolean> {
  // A source has at most 50 stages; each stored name is keyed again here, so names stored before
  // the key changed (only lowercased) match as they would now.
  const key = stageKey(stage);
  const stored = await trx.selectFrom('recruiting.ats_stage_mappings').select('stage').where('organization_id', '=', organizationId).where('source', '=', source).execute();
  return stored.some((row) => stageKey(row.stage) === key);
}

/**
 * The AI interview a mapped stage asks for: the candidate's open one for the position (a
 * repeated stage change, or a retried activity, never schedules a second), or the one they
 * declined (no new invitation), or a new one. Parallel events for the pair wait on one
 * transaction-scoped lock, so the second sees the first's interview once it commits.
 */
async function interviewForStage(trx: Db, tokens: InviteTokens, organizationId: string, candidate: Candidate, positionId: string): Promise<string> {
  // Held until commit: an erasure waits for this event, or this event, having waited, finds no
  // candidate (not_found) rather than a scrubbed e-mail.
  await getCandidate(trx, organizationId, candidate.id, true);
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ats-interview:${candidate.id}:${positionId}`}, 0))`.execute(trx);
  const rows = await trx
    .selectFrom('recruiting.interviews')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('candidate_id', '=', candidate.id)
    .where('position_id', '=', positionId)
    .where('status', 'in', ['scheduled', 'in_progress', 'declined'])
    .orderBy('created_at', 'desc')
    .execute();
  // One still open (by the interviews' own rule: one in progress may run past expiresAt), else the latest declined.
  const existing = rows.find((row) => isOpen(row)) ?? rows.find((row) => row.status === 'declined');
  return existing?.id ?? (await insertInterview(trx, tokens, organizationId, { candidate: { email: candidate.email }, positionId, duration: 30, expiresInDays: 14 })).id;
}
