import { AppError, enqueueWorkflowStart, recordAudit, redactEventPayloads, type Kysely } from '@hireloop/platform';
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

/**
 * The erasure workflow's recruiting step: the candidate row (again), the answers and evaluation
 * text of its interviews, their titles and cancellation reasons (free text a client wrote), and
 * the payloads in recruiting's outbox that mention the person. Interviews, evaluations and
 * enrollments stay as anonymous rows. Returns the ids other services look for (ids only: this
 * result sits in the workflow's history). Refuses a candidate that is not erased.
 */
export function scrubErasedCandidate(db: Kysely<RecruitingDB>, organizationId: string, id: string) {
  return db.transaction().execute(async (trx) => {
    const row = await lockCandidate(trx, organizationId, id);
    if (!row.erased_at) throw new AppError('conflict', `Candidate ${id} is not erased.`);
    await trx.updateTable('recruiting.candidates').set(scrubbedCandidate(id)).where('id', '=', id).execute();
    const interviewIds = (await trx.selectFrom('recruiting.interviews').select('id').where('organization_id', '=', organizationId).where('candidate_id', '=', id).execute()).map((r) => r.id);
    await scrubInterviewContent(trx, interviewIds);
    if (interviewIds.length) {
      await trx.updateTable('recruiting.interviews').set({ title: 'Erased', cancellation_reason: null }).where('id', 'in', interviewIds).execute();
    }
    const enrollmentIds = (await trx.selectFrom('recruiting.enrollments').select('id').where('organization_id', '=', organizationId).where('candidate_id', '=', id).execute()).map((r) => r.id);
    const outbox = await redactEventPayloads(trx, SCHEMA, 'outbox', organizationId, [id, ...interviewIds, ...enrollmentIds]);
    return { interviewIds, enrollmentIds, outbox };
  });
}
