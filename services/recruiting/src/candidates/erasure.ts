import { AppError, enqueueWorkflowStart, recordAudit, redactEventPayloads, sql, type Kysely } from '@hireloop/platform';
import { SCHEMA, type Db, type RecruitingDB } from '../db.js';
import { scrubInterviewContent } from '../interviews/interview-content.js';

/**
 * The candidate row of an erased person: nothing of them is left but the id. The e-mail becomes a
 * value no request can send (not an e-mail address), which keeps the per-organization unique
 * index on e-mails satisfied and frees the person's real address for a new record.
 */
const scrubbedCandidate = (id: string) => ({ email: `erased:${id}`, name: '', phone: null, external_id: null, metadata: '{}' });

async function lockCandidate(trx: Db, organizationId: string, id: string) {
  const row = await trx.selectFrom('recruiting.candidates').select(['id', 'erased_at']).where('organization_id', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
  if (!row) throw new AppError('not_found', `No candidate ${id}.`);
  return row;
}

export interface ErasureStarted {
  candidateId: string;
  erasedAt: string;
}

/**
 * DELETE /candidates/{id} (PRODUCT.md §7), recruiting's part, in one transaction: the candidate is
 * marked erased (404 everywhere from this commit on: the candidate, its interviews, their
 * evaluations and invite pages), its row is scrubbed at once, and the workflow `erase:<id>` that
 * scrubs every other copy is queued. Erasing an erased candidate changes nothing and answers the
 * same; another organization's candidate is 404.
 */
export function eraseCandidate(db: Kysely<RecruitingDB>, taskQueue: string, organizationId: string, id: string): Promise<ErasureStarted> {
  return db.transaction().execute(async (trx) => {
    const row = await lockCandidate(trx, organizationId, id);
    if (row.erased_at) return { candidateId: id, erasedAt: row.erased_at.toISOString() };
    const now = new Date();
    await trx.updateTable('recruiting.candidates').set({ ...scrubbedCandidate(id), erased_at: now, updated_at: now }).where('id', '=', id).execute();
    await enqueueWorkflowStart(trx, SCHEMA, {
      workflowId: `erase:${id}`,
      workflowType: 'eraseCandidate',
      args: [{ organizationId, candidateId: id }],
      organizationId,
      kind: 'candidate_erasure',
      taskQueue,
    });
    // The caller of DELETE /candidates/{id} (integrations passes the key or user on).
    await recordAudit(trx, SCHEMA, organizationId, 'candidate.erased', { type: 'candidate', id });
    return { candidateId: id, erasedAt: now.toISOString() };
  });
}

/** At most this many of a person's related ids are handled per call (a page). */
export const ERASURE_PAGE_MAX = 1000;

/**
 * A page of the ids of an erased person's interviews and enrollments, in id order after `after`
 * (ids are prefixed, so the two kinds sort apart): what the other services look for. Ids only.
 */
async function relatedIdsPage(trx: Db, organizationId: string, candidateId: string, after: string | null, limit: number): Promise<{ interviewIds: string[]; ids: string[] }> {
  const interviews = trx.selectFrom('recruiting.interviews').select([sql.lit('interview').as('kind'), 'id']).where('organization_id', '=', organizationId).where('candidate_id', '=', candidateId);
  const enrollments = trx.selectFrom('recruiting.enrollments').select([sql.lit('enrollment').as('kind'), 'id']).where('organization_id', '=', organizationId).where('candidate_id', '=', candidateId);
  const rows = await trx
    .selectFrom(interviews.unionAll(enrollments).as('related'))
    .select(['kind', 'id'])
    .$if(after !== null, (q) => q.where('id', '>', after!))
    .orderBy('id')
    .limit(limit)
    .execute();
  return { interviewIds: rows.filter((r) => r.kind === 'interview').map((r) => r.id), ids: rows.map((r) => r.id) };
}

export interface ErasurePage {
  /** Ids of this page (interviews and enrollments); the candidate's own id is not among them. */
  ids: string[];
  /** Where the next page starts (pass it as `after`), or null after the last page. */
  next: string | null;
}

const pageOf = (ids: string[], limit: number): ErasurePage => ({ ids, next: ids.length === limit ? ids[ids.length - 1]! : null });

/** A page of an erased person's related ids (erasure's other steps page through them); refuses a candidate that is not erased. */
export function erasedPersonIds(db: Kysely<RecruitingDB>, organizationId: string, id: string, after: string | null, limit: number): Promise<ErasurePage> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('recruiting.candidates').select('erased_at').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('not_found', `No candidate ${id}.`);
    if (!row.erased_at) throw new AppError('conflict', `Candidate ${id} is not erased.`);
    return pageOf((await relatedIdsPage(trx, organizationId, id, after, limit)).ids, limit);
  });
}

/**
 * The erasure workflow's recruiting step, one page per call (`after`: where the last page
 * ended): the candidate row (again), the answers and evaluation text of the page's interviews,
 * their titles and cancellation reasons (free text a client wrote), and the payloads in
 * recruiting's outbox that mention the person or one of the page's ids. Interviews, evaluations
 * and enrollments stay as anonymous rows. Answers counts and where the next page starts (no ids:
 * the result sits in the workflow's history). Refuses a candidate that is not erased.
 */
export function scrubErasedCandidate(db: Kysely<RecruitingDB>, organizationId: string, id: string, after: string | null, limit: number) {
  return db.transaction().execute(async (trx) => {
    const row = await lockCandidate(trx, organizationId, id);
    if (!row.erased_at) throw new AppError('conflict', `Candidate ${id} is not erased.`);
    await trx.updateTable('recruiting.candidates').set(scrubbedCandidate(id)).where('id', '=', id).execute();
    const { interviewIds, ids } = await relatedIdsPage(trx, organizationId, id, after, limit);
    await scrubInterviewContent(trx, interviewIds);
    if (interviewIds.length) {
      await trx.updateTable('recruiting.interviews').set({ title: 'Erased', cancellation_reason: null }).where('id', 'in', interviewIds).execute();
    }
    const outbox = await redactEventPayloads(trx, SCHEMA, 'outbox', organizationId, [id, ...ids]);
    return { interviews: interviewIds.length, enrollments: ids.length - interviewIds.length, outbox, next: pageOf(ids, limit).next };
  });
}
