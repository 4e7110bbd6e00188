import {
  CandidateId, EnrollBody, EnrollNewCandidate, Enrollment, EnrollmentId, envelope, EXACTLY_ONE_MOVE, exactlyOneMove, listEnvelope, FlowId, HiringFlow, ListEnrollmentsQuery, ListFlowsQuery,
  MoveEnrollmentFields,
} from '@hireloop/contracts';
import { z } from 'zod';
import { apiProcedure } from './trpc.js';
import { listPage } from './pagination.js';

const tags = ['Hiring flows'];

export const listHiringFlows = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/hiring-flows', tags, summary: 'List hiring flows', description: 'Flows are made in the console. Newest first; the next page is in `Link: rel="next"`.' } })
  .input(ListFlowsQuery)
  .output(listEnvelope(HiringFlow))
  .query(async ({ ctx, input }) => listPage(ctx, await ctx.recruiting.flows.list.query(input)));

export const getHiringFlow = apiProcedure
  .meta({ scope: 'read', openapi: { method: 'GET', path: '/hiring-flows/{id}', tags, summary: 'Hiring flow detail', errorResponses: [404] } })
  .input(z.object({ id: FlowId }).strict())
  .output(envelope(HiringFlow))
  .query(async ({ ctx, input }) => ({ data: await ctx.recruiting.flows.get.query(input) }));

// The path parameter `id` beside the body; exactly one of `candidateId` and `candidate` (EnrollBody).
const EnrollInput = z
  .object({
    id: FlowId,
    candidateId: CandidateId.optional(),
    candidate: EnrollNewCandidate.optional(),
  })
  .strict()
  .refine((b) => (b.candidateId === undefined) !== (b.candidate === undefined), { message: 'give exactly one of candidateId and candidate', path: ['candidateId'] });

export const enrollCandidate = apiProcedure
  .meta({
    scope: 'write',
    successStatus: 201,
    exactlyOneOf: ['candidateId', 'candidate'],
    openapi: {
      method: 'POST', path: '/hiring-flows/{id}/candidates', tags, summary: 'Enroll a candidate into a flow', successDescription: 'The candidate was enrolled in the first stage', errorResponses: [404],
      description: 'Body: `{"candidateId": "cand_…"}`, or `{"candidate": {"email", "name"}}` to find the candidate by e-mail or create one. The enrollment starts in the first stage; if that is an `ai_interview` stage, an interview is scheduled for the flow\'s position and its id returned. Enrolling twice is 409 `already_enrolled`.',
    },
  })
  .input(EnrollInput)
  .output(envelope(Enrollment))
  .mutation(async ({ ctx, input }) => {
    const { id, ...rest } = input;
    const body = EnrollBody.parse(rest);
    const enrollment = await ctx.recruiting.flows.enroll.mutate({ flowId: id, body });
    return { data: enrollment };
  });

export const listFlowCandidates = apiProcedure
  .meta({
    scope: 'read',
    openapi: {
      method: 'GET', path: '/hiring-flows/{id}/candidates', tags, summary: 'List a flow\'s enrollments (the pipeline)', errorResponses: [404],
      description: 'Newest enrollment first. Filters: `stageId`, `status` (`active`, `completed`, `withdrawn`). The next page is in `Link: rel="next"`. An unknown flow is 404.',
    },
  })
  .input(ListEnrollmentsQuery.extend({ id: FlowId }).strict())
  .output(listEnvelope(Enrollment))
  .query(async ({ ctx, input }) => {
    const { id, ...query } = input;
    const page = await ctx.recruiting.flows.enrollments.query({ flowId: id, query });
    // The service's cards also carry the candidate for the console; the API's resource is the enrollment.
    return listPage(ctx, { ...page, items: page.items.map((card) => Enrollment.parse(card)) });
  });

export const moveFlowCandidate = apiProcedure
  .meta({
    scope: 'write',
    exactlyOneOf: ['stageId', 'status'],
    openapi: {
      method: 'PATCH', path: '/hiring-flows/{id}/candidates/{enrollmentId}', tags, summary: 'Move a candidate to a stage, or end the enrollment', errorResponses: [404, 409],
      description: 'Body: `{"stageId": "stage_…"}` moves the candidate to that stage of the flow (any stage, forwards or back; 422 for a stage the flow does not have); `{"status": "completed" | "withdrawn"}` ends the enrollment. Give exactly one. Entering an `ai_interview` stage schedules an interview for the flow\'s position unless the enrollment\'s interview is still open. An ended enrollment is 409 `enrollment_ended`; asking for the stage or status it already has returns it unchanged. Emits `hiring_flow.candidate_moved` when something changed.',
    },
  })
  .input(MoveEnrollmentFields.extend({ id: FlowId, enrollmentId: EnrollmentId }).strict().refine(exactlyOneMove, EXACTLY_ONE_MOVE))
  .output(envelope(Enrollment))
  .mutation(async ({ ctx, input }) => {
    const { id, enrollmentId, ...move } = input;
    return { data: await ctx.recruiting.flows.move.mutate({ flowId: id, enrollmentId, move }) };
  });
