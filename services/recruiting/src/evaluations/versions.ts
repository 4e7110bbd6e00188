import { AppError, enqueueWorkflowStart, recordAudit } from '@hireloop/platform';
import { MAX_EVALUATION_VERSIONS, type RerunBody } from '@hireloop/contracts';
import { SCHEMA, type Db } from '../db.js';
import { effectiveStatus } from '../interviews/status.js';
import type { InterviewRow } from '../interviews/interviews.queries.js';

/**
 * The workflow of one evaluation version: `evaluate:<interview>` for the first (as before
 * versions existed), `evaluate:<interview>:<version>` for a re-run (a deliberate rerun takes a
 * generation suffix, ARCHITECTURE.md "Boundaries").
 */
export function evaluationWorkflowId(interviewId: string, version: number): string {
  return version === 1 ? `evaluate:${interviewId}` : `evaluate:${interviewId}:${version}`;
}

/**
 * Starts evaluation version `version` in the caller's transaction: its row (`processing`) and
 * its workflow, queued through the outbox. The workflow input is ids only.
 */
export async function startEvaluationVersion(trx: Db, interview: Pick<InterviewRow, 'id' | 'organization_id'>, v: { version: number; rubricVersion: number | null }, taskQueue: string) {
  await trx
    .insertInto('recruiting.evaluations')
    .values({
      interview_id: interview.id,
      organization_id: interview.organization_id,
      version: v.version,
      status: 'processing',
      rubric_version: v.rubricVersion,
      prompt_version: null,
      competency_scores: null,
      overall_score_reason: null,
      strengths: '[]',
      concerns: '[]',
      competencies: '[]',
    })
    .execute();
  await enqueueWorkflowStart(trx, SCHEMA, {
    workflowId: evaluationWorkflowId(interview.id, v.version),
    workflowType: 'evaluateInterview',
    args: [{ interviewId: interview.id, organizationId: interview.organization_id, version: v.version }],
    organizationId: interview.organization_id,
    kind: 'evaluation',
    taskQueue,
  });
}

/** A cancelled, expired or declined interview has no evaluation (409 evaluation_unavailable). */
export function assertEvaluable(interview: InterviewRow): void {
  const status = effectiveStatus(interview);
  if (status === 'cancelled' || status === 'expired' || status === 'declined') {
    throw new AppError('evaluation_unavailable', `Interview ${interview.id} is ${status}; there is no evaluation.`);
  }
}

/**
 * POST /interviews/{id}/evaluation/rerun (PRODUCT.md §12 "Versions"): a new version against the
 * pinned rubric (an interview from before rubrics: evaluated as before) or the position's
 * current one. 409 evaluation_not_ready unless the interview is completed; 409 conflict past
 * MAX_EVALUATION_VERSIONS, or when the transcript is gone (erased or past retention). The caller
 * holds the interview's row lock, so versions are numbered without gaps.
 */
export async function startRerun(trx: Db, interview: InterviewRow, body: RerunBody, taskQueue: string): Promise<number> {
  // §12 words this one 409 for every interview that is not completed, a cancelled, expired or
  // declined one included (GET …/evaluation keeps evaluation_unavailable for those).
  const status = effectiveStatus(interview);
  if (status !== 'completed') {
    const when = status === 'cancelled' || status === 'expired' || status === 'declined' ? 'only a completed interview can be evaluated again' : 'it can be evaluated again once it is completed';
    throw new AppError('evaluation_not_ready', `Interview ${interview.id} is ${status}; ${when}.`);
  }
  if (interview.content_scrubbed_at) throw new AppError('conflict', `The transcript of interview ${interview.id} is no longer kept; there is nothing to evaluate again.`);
  const last = await trx.selectFrom('recruiting.evaluations').select((eb) => eb.fn.max('version').as('version')).where('interview_id', '=', interview.id).executeTakeFirst();
  const version = (last?.version ?? 0) + 1;
  if (version > MAX_EVALUATION_VERSIONS) {
    throw new AppError('conflict', `Interview ${interview.id} already has ${MAX_EVALUATION_VERSIONS} evaluation versions, the most there can be.`);
  }
  let rubricVersion = interview.rubric_version;
  if (body.rubric === 'current') {
    const position = await trx.selectFrom('recruiting.positions').select('rubric_version').where('id', '=', interview.position_id).executeTakeFirstOrThrow();
    rubricVersion = position.rubric_version;
  }
  await startEvaluationVersion(trx, interview, { version, rubricVersion }, taskQueue);
  await recordAudit(trx, SCHEMA, interview.organization_id, 'evaluation.rerun', { type: 'evaluation', id: interview.id }, undefined, { version, ...(rubricVersion !== null ? { rubricVersion } : {}) });
  return version;
}
