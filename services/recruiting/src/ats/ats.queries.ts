import { AppError, recordAudit, sql, type Kysely } from '@hireloop/platform';
import { firstCharacters, type AtsEventBody, type Candidate, type CreatePositionBody } from '@hireloop/contracts';
import { SCHEMA, type Db, type RecruitingDB } from '../db.js';
import { findCandidateByEmail, insertCandidate, toCandidate, tryInsertCandidate, updateCandidateRow } from '../candidates/candidates.queries.js';
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

/** Whether an update to this candidate is the latest event about it (ats-order.ts); it is applied only then. */
type UpdateWhenLatest = (candidateId: string) => Promise<boolean>;

/**
 * Matches the event's candidate by (source, externalId), then by e-mail, else creates it. When a
 * parallel event for the same new candidate wins the insert, the match runs once more and finds
 * the winner, so events about one new person never fail for arriving together.
 */
async function matchCandidate(trx: Db, organizationId: string, source: string, c: AtsEventBody['candidate'], update: UpdateWhenLatest | null, lostRace = false): Promise<{ candidate: Candidate; action: 'created' | 'updated' | 'matched' | 'linked' | 'superseded' }> {
  const bySource = await trx
    .selectFrom('recruiting.candidates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('source', '=', source)
    .where('external_id', '=', c.externalId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  if (bySource) {
    if (update && (c.name || c.email)) {
      if (!(await update(bySource.id))) return { candidate: toCandidate(bySource), action: 'superseded' as const };
      // The same update path as PATCH /candidates/{id}: e-mail uniqueness, `candidate.updated`.
      const candidate = await updateCandidateRow(trx, organizationId, bySource.id, { name: c.name, email: c.email }).catch((err: unknown) => {
        // The API's message points at a `candidateId` field, which the processed event does not have: name the id here.
        if (!(err instanceof AppError && err.code === 'candidate_exists')) throw err;
        throw new AppError('candidate_exists', `The new e-mail of candidate ${c.externalId} belongs to another candidate, ${String(err.extra?.['candidateId'])}.`, undefined, err.extra);
      });
      return { candidate, action: 'updated' as const };
    }
    return { candidate: toCandidate(bySource), action: 'matched' as const };
  }
  if (c.email) {
    const byEmail = await findCandidateByEmail(trx, organizationId, c.email);
    if (byEmail) {
      // Link the ATS's id to the candidate we already had, so later events that carry only the id find it.
      if (byEmail.external_id !== null) return { candidate: toCandidate(byEmail), action: 'matched' as const };
      const linked = await updateCandidateRow(trx, organizationId, byEmail.id, { source, externalId: c.externalId });
      return { candidate: linked, action: 'linked' as const };
    }
  }
  if (!c.email || !c.name) {
    throw new AppError('validation_failed', `Candidate ${c.externalId} is unknown; its email and name are needed to create it.`, [{ path: 'candidate', message: 'email and name required for a new candidate' }]);
  }
  const input = { email: c.email, name: c.name, externalId: c.externalId, source };
  if (lostRace) return { candidate: await insertCandidate(trx, organizationId, input), action: 'created' as const };
  const created = await tryInsertCandidate(trx, organizationId, input);
  if (created) return { candidate: created, action: 'created' as const };
  return matchCandidate(trx, organizationId, source, c, update, true);
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

/** Stage names match case-insensitively and in any Unicode form: `Évaluation` composed or not, `STRASSE` and `Straße`. */
export function stageKey(stage: string): string {
  return stage.trim().normalize('NFKC').toUpperCase().toLowerCase();
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
    const update = event.type === 'candidate.updated' ? (id: string) => mark(candidateSubject(id), id) : null;
    const matched = await matchCandidate(trx, organizationId, event.source, event.candidate, update);
    const { candidate } = matched;
    let candidateAction = matched.action;
    // A candidate event that did not update (created, linked, or nothing to change) still marks its time.
    const marked = matched.action === 'updated' || matched.action === 'superseded';
    if (isCandidateEvent && !marked && !(await mark(candidateSubject(candidate.id), candidate.id)) && update) candidateAction = 'superseded';
    const position = event.job ? await matchPosition(trx, organizationId, event.source, event.job) : null;
    let interviewId: string | null = null;
    let cancelledInterviewIds: string[] = [];
    let superseded = candidateAction === 'superseded';
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
  const key = stageKey(stage);
  // Mappings stored before stage names were Unicode-normalized were only lowercased.
  const legacy = stage.trim().toLowerCase();
  const mapped = await trx
    .selectFrom('recruiting.ats_stage_mappings')
    .select('action')
    .where('organization_id', '=', organizationId)
    .where('source', '=', source)
    .where('stage', 'in', [...new Set([key, legacy])])
    .executeTakeFirst();
  return mapped !== undefined;
}

/**
 * The AI interview a mapped stage asks for: the candidate's open one for the position (a
 * repeated stage change, or a retried activity, never schedules a second), or the one they
 * declined (no new invitation), or a new one. Parallel events for the pair wait on one
 * transaction-scoped lock, so the second sees the first's interview once it commits.
 */
async function interviewForStage(trx: Db, tokens: InviteTokens, organizationId: string, candidate: Candidate, positionId: string): Promise<string> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ats-interview:${candidate.id}:${positionId}`}, 0))`.execute(trx);
  const existing = await trx
    .selectFrom('recruiting.interviews')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('candidate_id', '=', candidate.id)
    .where('position_id', '=', positionId)
    .where((eb) => eb.or([eb.and([eb('status', 'in', ['scheduled', 'in_progress']), eb('expires_at', '>', new Date())]), eb('status', '=', 'declined')]))
    // An open one first, then the latest declined.
    .orderBy(sql`status = 'declined'`)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return existing?.id ?? (await insertInterview(trx, tokens, organizationId, { candidate: { email: candidate.email }, positionId, duration: 30, expiresInDays: 14 })).id;
}
