import { CancellationReason, CreateInterviewBody, envelope, ReviewBody, listEnvelope, Evaluation, Interview, InterviewId, ListInterviewsQuery, ListQuery, MAX_EVALUATION_VERSIONS, RerunBody, Transcript } from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Interviews'];
const ById = z.object({ id: InterviewId }).strict();

export const scheduleInterview = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 201,
    location: '/interviews/{id}',
    openapi: {
      method: 'POST', path: '/interviews', tags, summary: 'Schedule an interview', successDescription: 'The interview was scheduled; send `inviteUrl` to the candidate', errorResponses: [404],
      description: '`candidate.email` and `positionId` are required. A candidate with a new e-mail is created (then `candidate.name` is required). `duration` is in whole minutes (5–180, default 30); the invite expires after `expiresInDays` (1–90, default 14). A closed position is 409 `position_closed`.',
    },
  })
  .input(CreateInterviewBody)
  .output(envelope(Interview))
  .mutation(async ({ ctx, input }) => {
    const interview = await ctx.recruiting.interviews.schedule.mutate(input);
    return { data: interview };
  });

export const listInterviews = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/interviews', tags, summary: 'List interviews', description: 'Newest first. Filters: `status`, `candidateId`, `positionId`, `createdAfter`, `createdBefore`. The next page is in `Link: rel="next"`. With `updatedAfter` (incremental sync): every change after that instant, oldest first by `(updatedAt, id)`; see docs/api.md.' } })
  .input(ListInterviewsQuery)
  .output(listEnvelope(Interview))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.recruiting.interviews.list.query(input)));

export const getInterview = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/interviews/{id}', tags, summary: 'Interview status', errorResponses: [404] } })
  .input(ById)
  .output(envelope(Interview))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.interviews.get.query(input) }));

export const cancelInterview = apiProcedure
  .meta({
    scope: 'write',
    openapi: {
      method: 'DELETE', path: '/interviews/{id}', tags, summary: 'Cancel an interview', errorResponses: [404, 409],
      description: 'A scheduled or in-progress interview becomes `cancelled`; the record is kept. Give an optional `reason` as a query parameter or a JSON body `{"reason": "…"}`. Cancelling a cancelled interview returns it again (200); a completed, expired or declined one is 409 `interview_not_cancellable`.',
    },
  })
  .input(z.object({ id: InterviewId, reason: CancellationReason.optional() }).strict())
  .output(envelope(Interview))
  // A JSON body's `reason` reaches the input as the query's would (the dispatcher's queryRouteInput).
  .mutation(async ({ ctx, input }) => ({ data: await ctx.recruiting.interviews.cancel.mutate({ id: input.id, reason: input.reason }) }));

export const getEvaluation = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/interviews/{id}/evaluation', tags, summary: 'Interview results', errorResponses: [404, 409],
      description: 'The AI evaluation: `pending` until the candidate submits, then `processing`, then `completed` (or `failed`). With several versions (re-runs), the newest `completed` one, so a re-run in progress never hides a finished score or its review; the newest one while none has completed. Each competency of the rubric is in `competencyScores` with its verified quotes; `overallScore` and `recommendation` are computed from them by the formula in docs/api.md. 409 `evaluation_unavailable` for a cancelled, expired or declined interview.',
    },
  })
  .input(ById)
  .output(envelope(Evaluation))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.evaluations.get.query({ interviewId: input.id }) }));

export const reviewEvaluation = apiProcedure
  .meta({
    scope: 'write',
    openapi: {
      method: 'POST', path: '/interviews/{id}/evaluation/review', tags, summary: 'Record a person\'s decision', errorResponses: [404, 409],
      description: 'The AI recommends; a person decides (`advance`, `hold` or `reject`, with an optional `note`). A review belongs to one evaluation version: `version`, by default the one GET …/evaluation returns (a version the interview does not have is 422 on `version`). Only on a `completed` version: otherwise 409 `evaluation_not_ready` (409 `evaluation_unavailable` for a cancelled, expired or declined interview). A later review of the same version replaces the earlier one. The reviewer is this API key. Emits `evaluation.reviewed`.',
    },
  })
  .input(ReviewBody.extend({ id: InterviewId }).strict())
  .output(envelope(Evaluation))
  .mutation(async ({ ctx, input }) => {
    const { id, ...review } = input;
    const reviewer = { type: 'api_key' as const, id: ctx.caller.key.id, name: ctx.caller.key.name };
    return { data: await ctx.recruiting.evaluations.review.mutate({ interviewId: id, review, reviewer }) };
  });

export const listEvaluationVersions = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/interviews/{id}/evaluations', tags, summary: 'Evaluation versions', errorResponses: [404, 409],
      description: `Every version of the interview's evaluation, newest first (at most ${MAX_EVALUATION_VERSIONS}); empty before the candidate submits. Each version has its own rubric version, model, prompt version and review. The next page is in \`Link: rel="next"\`. 409 \`evaluation_unavailable\` for a cancelled, expired or declined interview.`,
    },
  })
  .input(ListQuery.extend({ id: InterviewId }).strict())
  .output(listEnvelope(Evaluation))
  .query(async ({ ctx, input }) => {
    const { id, ...query } = input;
    return listPage(ctx, await ctx.recruiting.evaluations.versions.query({ ...query, interviewId: id }));
  });

export const rerunEvaluation = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 202,
    openapi: {
      method: 'POST', path: '/interviews/{id}/evaluation/rerun', tags, summary: 'Evaluate again', successDescription: 'The new version, `processing`; poll GET …/evaluations', errorResponses: [404, 409],
      description: `Makes a new evaluation version of a completed interview, against the rubric version pinned at scheduling (\`rubric: "pinned"\`, the default) or the position's current rubric (\`"current"\`). Earlier versions and their reviews are kept; GET …/evaluation goes on showing the newest completed one. Emits \`evaluation.completed\` (or \`evaluation.failed\`) with the new \`version\`. 409 \`evaluation_not_ready\` unless the interview is completed (a cancelled, expired or declined one included), 409 \`conflict\` past ${MAX_EVALUATION_VERSIONS} versions or once the transcript is no longer kept.`,
    },
  })
  .input(RerunBody.extend({ id: InterviewId }).strict())
  .output(envelope(Evaluation))
  .mutation(async ({ ctx, input }) => {
    const { id, ...body } = input;
    return { data: await ctx.recruiting.evaluations.rerun.mutate({ interviewId: id, body }) };
  });

export const getTranscript = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/interviews/{id}/transcript', tags, summary: 'Interview transcript', errorResponses: [404],
      description: 'The turns of the interview in order: interviewer questions (and follow-ups) and the candidate\'s answers, each with its `id` (`turn_…`), which evaluation quotes point to. The turns so far: while the interview is in progress, it ends at the current turn. Empty before the candidate starts, and once the answers retention (RETENTION_ANSWERS_DAYS) has passed; 404 once the candidate is erased, as the interview is.',
    },
  })
  .input(ById)
  .output(envelope(Transcript))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.interviews.transcript.query({ id: input.id }) }));
