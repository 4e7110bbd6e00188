import { z } from 'zod';
import { AppError, auditActorType, explainingDatabaseRefusal, listAuditRecords, purgeAuditEvents, purgeIdempotencyRecords, purgeRelayedOutboxes, type CursorCodec, type Kysely, type Lane } from '@hireloop/platform';
import {
  AtsEventBody, AuditRecord, AuditSliceQuery, MAX_ATS_SOURCES, SetStageMappingsInput, StageMappings, CancellationReason, Candidate, CandidateEnrollment, CandidateId, CreateCandidateBody, CreateInterviewBody, CreatePositionBody, EnrollBody, Enrollment, EnrollmentCard, EnrollmentId,
  Evaluation, EvaluationResult, FlowId, MAX_EVALUATION_VERSIONS, ModelEvaluation, RerunBody, Transcript, FlowInput, HiringFlow, Interview, InterviewId, ListCandidateEnrollmentsQuery, ListCandidateEvaluationsQuery, ListEnrollmentsQuery, ListFlowsQuery, ListInterviewsQuery,
  ListEvaluationVersionsQuery, ListPositionsQuery, MoveEnrollmentBody, OrganizationId, pageOf, Position, PositionId, Reviewer, ReviewBody, SearchCandidatesQuery, UpdateCandidateBody, UpdatePositionBody,
  firstCharacters, text,
} from '@hireloop/contracts';
import { SCHEMA, type RecruitingDB } from './db.js';
import { orgProcedure, router, systemOrgProcedure, systemProcedure } from './trpc.js';
import { createCandidate, getCandidate, listCandidates, updateCandidate } from './candidates/candidates.queries.js';
import { ERASURE_PAGE_MAX, erasedPersonIds, eraseCandidate, scrubErasedCandidate } from './candidates/erasure.js';
import { scrubExpiredAnswers } from './interviews/interview-content.js';
import { applyJobDescription, createPosition, getPositionRow, listPositions, toPosition, updatePosition } from './positions/positions.queries.js';
import { applyAtsEvent, listStageMappings, setStageMappings } from './ats/ats.queries.js';
import { cancelInterview, getInterviewRow, listInterviews, scheduleInterview, toInterview } from './interviews/interviews.queries.js';
import type { InviteTokens } from './interviews/invite-token.js';
import { evaluationInput, finishEvaluation, getEvaluation, listCandidateEvaluations, listEvaluationVersions, rerunEvaluation, reviewEvaluation } from './evaluations/evaluations.queries.js';
import { transcriptOf } from './interviews/transcript.js';
import { createFlow, getFlow, listFlows, updateFlow } from './flows/flows.queries.js';
import { enroll, listCandidateEnrollments, listEnrollments, moveEnrollment } from './flows/enrollments.queries.js';
import { seedDemoFlows } from './flows/demo-flows.js';
import { inviteRouter } from './invites/invites.router.js';
import type { Interviewer } from './interviewer/conversation.queries.js';
import { PreviewInput, PreviewStep, previewStep } from './interviewer/preview.js';

export interface RecruitingDeps {
  db: Kysely<RecruitingDB>;
  cursors: CursorCodec;
  tokens: InviteTokens;
  /** The task queue of each work lane of this deployment (platform's lanes.ts). */
  lanes: Record<Lane, string>;
  /** How far behind now `updatedAfter` lists stop (docs/api.md "Incremental sync"). */
  syncLagMs: number;
  /** Relayed outbox rows are kept this long (OUTBOX_RETENTION_HOURS). */
  outboxRetentionHours: number;
  /** Audit rows are kept this long (AUDIT_RETENTION_DAYS). */
  auditRetentionDays: number;
  /** Recorded Idempotency-Keys are kept this long (IDEMPOTENCY_RETENTION_HOURS). */
  idempotencyRetentionHours: number;
  /** RETENTION_ANSWERS_DAYS, stated in the invite page's AI notice. */
  retentionAnswersDays: number;
  /** The AI interviewer's follow-ups (writer and deadline) and what starts when an interview ends. */
  interviewer: Omit<Interviewer, 'taskQueue'>;
}

const ById = <T extends z.ZodType>(id: T) => z.object({ id });
const Version = z.number().int().min(1).max(MAX_EVALUATION_VERSIONS);
/** Workflows started before evaluation versions existed pass no version: theirs is the first. */
const OfVersion = z.object({ interviewId: InterviewId, version: Version.default(1) });
/** A page of an erased person's related ids: after the last id of the previous page (none: the first). */
const erasurePage = { after: z.string().max(100).nullable().optional(), limit: z.number().int().min(1).max(ERASURE_PAGE_MAX).default(ERASURE_PAGE_MAX) };

export function createRecruitingRouter(deps: RecruitingDeps) {
  const { db, cursors, tokens, syncLagMs } = deps;
  return router({
    candidates: router({
      create: orgProcedure.input(CreateCandidateBody).output(Candidate).mutation(({ ctx, input }) => createCandidate(db, ctx.org, input, ctx.idempotencyScope ?? null)),
      list: orgProcedure.input(SearchCandidatesQuery).output(pageOf(Candidate)).query(({ ctx, input }) => listCandidates(db, cursors, ctx.org, input, syncLagMs)),
      get: orgProcedure.input(ById(CandidateId)).output(Candidate).query(({ ctx, input }) => getCandidate(db, ctx.org, input.id)),
      update: orgProcedure
        .input(z.object({ id: CandidateId, change: UpdateCandidateBody }))
        .output(Candidate)
        .mutation(({ ctx, input }) => updateCandidate(db, ctx.org, input.id, input.change)),
      /** DELETE /candidates/{id}: 404 from now on, and the `erase:<id>` workflow queued (called by integrations' erasure task). */
      erase: orgProcedure
        .input(ById(CandidateId))
        .output(z.object({ candidateId: CandidateId, erasedAt: z.string() }))
        .mutation(({ ctx, input }) => eraseCandidate(db, deps.lanes.erasure, ctx.org, input.id)),
      /** The erasure workflow's recruiting step, a page per call; counts out only (they sit in the workflow history). */
      scrubErased: systemOrgProcedure
        .input(ById(CandidateId).extend(erasurePage))
        .output(z.object({ interviews: z.number().int(), enrollments: z.number().int(), outbox: z.number().int(), next: z.string().nullable() }))
        .mutation(({ ctx, input }) => explainingDatabaseRefusal("Recruiting's erasure step", () => scrubErasedCandidate(db, ctx.org, input.id, input.after ?? null, input.limit))),
      /** A page of an erased person's interview and enrollment ids, for the erasure's other steps. */
      erasedIds: systemOrgProcedure
        .input(ById(CandidateId).extend(erasurePage))
        .output(z.object({ ids: z.array(z.string()), next: z.string().nullable() }))
        .query(({ ctx, input }) => erasedPersonIds(db, ctx.org, input.id, input.after ?? null, input.limit)),
    }),
    positions: router({
      create: orgProcedure.input(CreatePositionBody).output(Position).mutation(({ ctx, input }) => createPosition(db, ctx.org, input, ctx.idempotencyScope ?? null)),
      list: orgProcedure.input(ListPositionsQuery).output(pageOf(Position)).query(({ ctx, input }) => listPositions(db, cursors, ctx.org, input, syncLagMs)),
      get: orgProcedure.input(ById(PositionId)).output(Position).query(async ({ ctx, input }) => toPosition(await getPositionRow(db, ctx.org, input.id))),
      update: orgProcedure
        .input(z.object({ id: PositionId, change: UpdatePositionBody }))
        .output(Position)
        .mutation(({ ctx, input }) => updatePosition(db, ctx.org, input.id, input.change)),
      applyJobDescription: orgProcedure
        .input(z.object({ id: PositionId, description: text().min(1).max(20_000) }))
        .output(Position)
        .mutation(({ ctx, input }) => applyJobDescription(db, ctx.org, input.id, input.description)),
    }),
    interviews: router({
      schedule: orgProcedure.input(CreateInterviewBody).output(Interview).mutation(({ ctx, input }) => scheduleInterview(db, tokens, ctx.org, input, ctx.idempotencyScope ?? null)),
      list: orgProcedure.input(ListInterviewsQuery).output(pageOf(Interview)).query(({ ctx, input }) => listInterviews(db, cursors, tokens, ctx.org, input, syncLagMs)),
      get: orgProcedure.input(ById(InterviewId)).output(Interview).query(async ({ ctx, input }) => toInterview(await getInterviewRow(db, ctx.org, input.id), tokens)),
      cancel: orgProcedure
        .input(z.object({ id: InterviewId, reason: CancellationReason.optional() }))
        .output(Interview)
        .mutation(({ ctx, input }) => cancelInterview(db, tokens, ctx.org, input.id, input.reason)),
      /** "Try the interview" (console): the next step of a preview of a position's conversation; nothing is stored. */
      preview: orgProcedure.input(PreviewInput).output(PreviewStep).mutation(({ ctx, input }) => previewStep(db, deps.interviewer, ctx.org, input)),
      /** GET /interviews/{id}/transcript: the turns so far, in order (empty before the start and once scrubbed). */
      transcript: orgProcedure.input(ById(InterviewId)).output(Transcript).query(async ({ ctx, input }) => {
        await getInterviewRow(db, ctx.org, input.id);
        return transcriptOf(db, input.id);
      }),
    }),
    evaluations: router({
      get: orgProcedure.input(z.object({ interviewId: InterviewId })).output(Evaluation).query(({ ctx, input }) => getEvaluation(db, ctx.org, input.interviewId)),
      /** A candidate's evaluations, one per submitted interview (the console's candidate profile). */
      list: orgProcedure
        .input(ListCandidateEvaluationsQuery)
        .output(pageOf(Evaluation))
        .query(({ ctx, input }) => listCandidateEvaluations(db, cursors, ctx.org, input)),
      /** Every version of an interview's evaluation, newest first. */
      versions: orgProcedure.input(ListEvaluationVersionsQuery).output(pageOf(Evaluation)).query(({ ctx, input }) => listEvaluationVersions(db, cursors, ctx.org, input)),
      /** A new version, against the pinned or the current rubric: `processing` until its workflow ends. */
      rerun: orgProcedure
        .input(z.object({ interviewId: InterviewId, body: RerunBody }))
        .output(Evaluation)
        .mutation(({ ctx, input }) => rerunEvaluation(db, ctx.org, input.interviewId, input.body, deps.lanes.ai, ctx.idempotencyScope ?? null)),
      /**
       * A person's decision; the reviewer is the caller (gateway: the API key; console: the session
       * user), who names itself: a reviewer other than the token's subject is refused. Its kind
       * follows from the id and its name from the token the gateway signed, never from the body
       * (a console user could otherwise record a review as "Chief Hiring Officer", an API key).
       */
      review: orgProcedure
        .input(z.object({ interviewId: InterviewId, review: ReviewBody, reviewer: Reviewer }))
        .output(Evaluation)
        .mutation(({ ctx, input }) => {
          if (input.reviewer.id !== ctx.auth.sub) throw new AppError('forbidden', 'The reviewer is the caller: name yourself.');
          const kind = auditActorType(ctx.auth.sub);
          const reviewer = { id: ctx.auth.sub, type: kind === 'system' ? input.reviewer.type : kind, name: ctx.auth.name === undefined ? input.reviewer.name : firstCharacters(ctx.auth.name, 200) };
          return reviewEvaluation(db, ctx.org, input.interviewId, input.review, reviewer, ctx.idempotencyScope ?? null);
        }),
      /** For the evaluation workflow's activities. */
      input: systemOrgProcedure.input(OfVersion).query(({ ctx, input }) => evaluationInput(db, ctx.org, input.interviewId, input.version)),
      /** The model's per-competency output (verified and scored here), or a legacy result for an interview from before rubrics. */
      complete: systemOrgProcedure
        .input(
          OfVersion.extend({
            outcome: z.discriminatedUnion('kind', [
              z.object({ kind: z.literal('rubric'), output: ModelEvaluation, model: z.string().min(1), promptVersion: z.string().min(1).max(100) }),
              z.object({ kind: z.literal('legacy'), result: EvaluationResult, model: z.string().min(1), promptVersion: z.string().min(1).max(100) }),
            ]),
          }),
        )
        .output(Evaluation)
        .mutation(({ ctx, input }) => finishEvaluation(db, ctx.org, input.interviewId, input.version, input.outcome)),
      fail: systemOrgProcedure
        .input(OfVersion.extend({ error: z.object({ code: z.string(), message: z.string().max(2000) }), model: z.string().nullable() }))
        .output(Evaluation)
        .mutation(({ ctx, input }) => finishEvaluation(db, ctx.org, input.interviewId, input.version, { kind: 'failed', error: input.error, model: input.model })),
    }),
    flows: router({
      list: orgProcedure.input(ListFlowsQuery).output(pageOf(HiringFlow)).query(({ ctx, input }) => listFlows(db, cursors, ctx.org, input)),
      get: orgProcedure.input(ById(FlowId)).output(HiringFlow).query(({ ctx, input }) => getFlow(db, ctx.org, input.id)),
      create: orgProcedure.input(FlowInput).output(HiringFlow).mutation(({ ctx, input }) => createFlow(db, ctx.org, input)),
      update: orgProcedure
        .input(z.object({ id: FlowId, flow: FlowInput }))
        .output(HiringFlow)
        .mutation(({ ctx, input }) => updateFlow(db, ctx.org, input.id, input.flow)),
      enroll: orgProcedure
        .input(z.object({ flowId: FlowId, body: EnrollBody }))
        .output(Enrollment)
        .mutation(({ ctx, input }) => enroll(db, tokens, ctx.org, input.flowId, input.body, ctx.idempotencyScope ?? null)),
      /** A candidate's enrollments in every flow, with flow and stage names (the console's candidate profile). */
      candidateEnrollments: orgProcedure
        .input(ListCandidateEnrollmentsQuery)
        .output(pageOf(CandidateEnrollment))
        .query(({ ctx, input }) => listCandidateEnrollments(db, cursors, ctx.org, input)),
      /** The pipeline board: a flow's enrollments with their candidates, newest first. */
      enrollments: orgProcedure
        .input(z.object({ flowId: FlowId, query: ListEnrollmentsQuery }))
        .output(pageOf(EnrollmentCard))
        .query(({ ctx, input }) => listEnrollments(db, cursors, ctx.org, input.flowId, input.query)),
      move: orgProcedure
        .input(z.object({ flowId: FlowId, enrollmentId: EnrollmentId, move: MoveEnrollmentBody }))
        .output(Enrollment)
        .mutation(({ ctx, input }) => moveEnrollment(db, tokens, ctx.org, input.flowId, input.enrollmentId, input.move)),
      seedDemo: systemProcedure
        .input(z.object({ organizationId: OrganizationId }))
        .output(z.object({ created: z.boolean() }))
        .mutation(({ input }) => seedDemoFlows(db, input.organizationId)),
    }),
    invites: inviteRouter(db, tokens, { ...deps.interviewer, taskQueue: deps.lanes.ai }, deps.retentionAnswersDays),
    retention: router({
      /**
       * Run hourly by the `purge-recruiting` Temporal schedule: relayed outbox rows past
       * OUTBOX_RETENTION_HOURS, recorded Idempotency-Keys past IDEMPOTENCY_RETENTION_HOURS, answers and
       * evaluation text past RETENTION_ANSWERS_DAYS, and audit rows past AUDIT_RETENTION_DAYS.
       */
      purge: systemProcedure
        .output(z.object({ outbox: z.number().int(), workflowOutbox: z.number().int(), idempotency: z.number().int(), answers: z.number().int(), auditEvents: z.number().int() }))
        .mutation(async () => ({
          ...(await purgeRelayedOutboxes(db, SCHEMA, deps.outboxRetentionHours)),
          idempotency: await purgeIdempotencyRecords(db, SCHEMA, deps.idempotencyRetentionHours),
          answers: await scrubExpiredAnswers(db, deps.retentionAnswersDays),
          auditEvents: await purgeAuditEvents(db, SCHEMA, deps.auditRetentionDays),
        })),
    }),
    /** This service's slice of the audit trail; identity merges the slices into GET /audit-events. */
    audit: router({
      list: systemOrgProcedure.input(AuditSliceQuery).output(z.array(AuditRecord)).query(({ ctx, input }) => listAuditRecords(db, SCHEMA, ctx.org, input)),
    }),
    ats: router({
      /** The ATS-event workflow: match or create candidate and position, apply stage mappings. */
      applyEvent: systemOrgProcedure.input(AtsEventBody).mutation(({ ctx, input }) => applyAtsEvent(db, tokens, ctx.org, input)),
      setStageMappings: orgProcedure
        .input(SetStageMappingsInput)
        .output(StageMappings)
        .mutation(({ ctx, input }) => setStageMappings(db, ctx.org, input.source, input.stages)),
      /** The console's ATS page: the current mappings of every source. */
      stageMappings: orgProcedure
        .output(z.object({ items: z.array(StageMappings).max(MAX_ATS_SOURCES) }))
        .query(({ ctx }) => listStageMappings(db, ctx.org, MAX_ATS_SOURCES)),
    }),
  });
}

export type RecruitingRouter = ReturnType<typeof createRecruitingRouter>;
