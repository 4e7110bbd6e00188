import { z } from 'zod';
import { Cursor, ID_PREFIXES, PageLimit, prefixedId, text, Timestamp } from './common.js';

// Resources of the recruiting service (PRODUCT.md §7). Limits from §4.
export const CandidateId = prefixedId(ID_PREFIXES.candidate);
export const PositionId = prefixedId(ID_PREFIXES.position);
export const InterviewId = prefixedId(ID_PREFIXES.interview);

const Name = text().trim().min(1).max(200);
const Email = z.email().max(254).describe('E-mail address; unique per organization, case-insensitive');
const ExternalId = text().trim().min(1).max(200).describe('Your system\'s id for this record');
const Metadata = z
  .record(text().max(100), text().max(1000))
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 keys')
  .describe('Your own string key/value pairs (≤ 50 keys)');

/** Query-string timestamp filter: an ISO 8601 instant, e.g. 2026-01-31T00:00:00Z. */
const InstantFilter = z.iso.datetime({ offset: true });

export const Candidate = z
  .object({
    id: CandidateId,
    email: z.string(),
    name: z.string(),
    phone: z.string().nullable(),
    externalId: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Candidate' });
export type Candidate = z.infer<typeof Candidate>;

export const CreateCandidateBody = z
  .object({
    email: Email,
    name: Name,
    phone: text().trim().min(3).max(40).optional(),
    externalId: ExternalId.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .meta({ id: 'CreateCandidateBody' });
export type CreateCandidateBody = z.infer<typeof CreateCandidateBody>;

export const ListQuery = z.object({ limit: PageLimit, cursor: Cursor.optional() });

export const ListCandidatesQuery = ListQuery.extend({
  email: text().trim().min(1).max(254).optional().describe('Exact e-mail, case-insensitive'),
  externalId: ExternalId.optional(),
  createdAfter: InstantFilter.optional().describe('Only candidates created after this instant'),
  createdBefore: InstantFilter.optional().describe('Only candidates created before this instant'),
}).strict();
export type ListCandidatesQuery = z.infer<typeof ListCandidatesQuery>;

export const EmploymentType = z.enum(['full_time', 'part_time', 'contract', 'internship', 'temporary']);
export const PositionStatus = z.enum(['open', 'closed']);

export const Position = z
  .object({
    id: PositionId,
    title: z.string(),
    description: z.string().nullable(),
    department: z.string().nullable(),
    location: z.string().nullable(),
    employmentType: EmploymentType,
    status: PositionStatus,
    externalId: z.string().nullable(),
    interviewQuestions: z.array(z.string()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Position' });
export type Position = z.infer<typeof Position>;

export const CreatePositionBody = z
  .object({
    title: Name,
    description: text().max(20_000).optional(),
    department: Name.optional(),
    location: Name.optional(),
    employmentType: EmploymentType.default('full_time'),
    status: PositionStatus.default('open'),
    externalId: ExternalId.optional(),
    interviewQuestions: z.array(text().trim().min(1).max(1000)).max(20).default([]).describe('0–20 questions; a default set is used when empty'),
  })
  .strict()
  .meta({ id: 'CreatePositionBody' });
export type CreatePositionBody = z.infer<typeof CreatePositionBody>;

export const ListPositionsQuery = ListQuery.extend({ status: PositionStatus.optional() }).strict();
export type ListPositionsQuery = z.infer<typeof ListPositionsQuery>;

/** A page as a service returns it; the gateway turns nextCursor into `Link: rel="next"`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const InterviewStatus = z.enum(['scheduled', 'in_progress', 'completed', 'cancelled', 'expired']);
export type InterviewStatus = z.infer<typeof InterviewStatus>;

export const Interview = z
  .object({
    id: InterviewId,
    title: z.string(),
    status: InterviewStatus,
    candidate: z.object({ id: CandidateId, email: z.string(), name: z.string() }),
    positionId: PositionId,
    duration: z.number().int().describe('Length in whole minutes'),
    inviteUrl: z.url().describe('The page where the candidate takes the interview; send it to the candidate'),
    expiresAt: Timestamp,
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    cancelledAt: Timestamp.nullable(),
    cancellationReason: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Interview' });
export type Interview = z.infer<typeof Interview>;

export const CreateInterviewBody = z
  .object({
    title: Name.optional().describe('Defaults to "<position title> interview"'),
    candidate: z
      .object({ email: Email, name: Name.optional().describe('Required when no candidate with this e-mail exists yet') })
      .strict(),
    positionId: PositionId,
    duration: z.number().int().min(5).max(180).default(30).describe('Whole minutes, 5–180'),
    expiresInDays: z.number().int().min(1).max(90).default(14).describe('The invite expires this many days after creation'),
  })
  .strict()
  .meta({ id: 'CreateInterviewBody' });
export type CreateInterviewBody = z.infer<typeof CreateInterviewBody>;

export const ListInterviewsQuery = ListQuery.extend({
  status: InterviewStatus.optional(),
  candidateId: CandidateId.optional(),
  positionId: PositionId.optional(),
  createdAfter: InstantFilter.optional(),
  createdBefore: InstantFilter.optional(),
}).strict();
export type ListInterviewsQuery = z.infer<typeof ListInterviewsQuery>;

export const CancellationReason = text().trim().min(1).max(1000);

export const Recommendation = z.enum(['strong_no', 'no', 'mixed', 'yes', 'strong_yes']);
export const EvaluationStatus = z.enum(['pending', 'processing', 'completed', 'failed']);

/** The structured evaluation the AI produces (validated before it is stored). */
export const EvaluationResult = z.object({
  overallScore: z.number().int().min(0).max(100),
  recommendation: Recommendation,
  summary: z.string().min(1).max(5000),
  strengths: z.array(z.string().max(1000)).max(20),
  concerns: z.array(z.string().max(1000)).max(20),
  competencies: z.array(z.object({ name: z.string().max(200), score: z.number().int().min(1).max(5), rationale: z.string().max(2000) })).max(20),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

export const InterviewAnswer = z.object({ question: z.string(), answer: z.string() });

export const Evaluation = z
  .object({
    interviewId: InterviewId,
    status: EvaluationStatus,
    overallScore: z.number().int().nullable(),
    recommendation: Recommendation.nullable(),
    summary: z.string().nullable(),
    strengths: z.array(z.string()),
    concerns: z.array(z.string()),
    competencies: z.array(z.object({ name: z.string(), score: z.number().int(), rationale: z.string() })),
    answers: z.array(InterviewAnswer),
    model: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    completedAt: Timestamp.nullable(),
  })
  .meta({ id: 'Evaluation' });
export type Evaluation = z.infer<typeof Evaluation>;

export const FlowId = prefixedId(ID_PREFIXES.flow);
export const StageId = prefixedId(ID_PREFIXES.stage);
export const StageKind = z.enum(['screen', 'ai_interview', 'review', 'offer']);

export const HiringFlow = z
  .object({
    id: FlowId,
    name: z.string(),
    description: z.string().nullable(),
    positionId: PositionId.nullable(),
    stages: z.array(z.object({ id: StageId, name: z.string(), kind: StageKind, position: z.number().int() })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'HiringFlow' });
export type HiringFlow = z.infer<typeof HiringFlow>;

export const FlowInput = z
  .object({
    name: Name,
    description: text().max(20_000).optional(),
    positionId: PositionId.optional(),
    stages: z.array(z.object({ name: Name, kind: StageKind }).strict()).min(1).max(20),
  })
  .strict();
export type FlowInput = z.infer<typeof FlowInput>;

export const ListFlowsQuery = ListQuery.extend({}).strict();

export const EnrollmentStatus = z.enum(['active', 'completed', 'withdrawn']);
export const Enrollment = z
  .object({
    id: prefixedId(ID_PREFIXES.enrollment),
    flowId: FlowId,
    candidateId: CandidateId,
    stageId: StageId,
    status: EnrollmentStatus,
    interviewId: InterviewId.nullable().describe('The AI interview scheduled when the stage is an ai_interview stage'),
    enrolledAt: Timestamp,
  })
  .meta({ id: 'Enrollment' });
export type Enrollment = z.infer<typeof Enrollment>;

export const EnrollBody = z
  .union([
    z.object({ candidateId: CandidateId }).strict(),
    z.object({ candidate: z.object({ email: Email, name: Name }).strict() }).strict(),
  ])
  .meta({ id: 'EnrollBody', description: 'Either an existing `candidateId`, or a `candidate` to find by e-mail or create' });
export type EnrollBody = z.infer<typeof EnrollBody>;
