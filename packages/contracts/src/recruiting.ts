import { z } from 'zod';
import { Cursor, ID_PREFIXES, Instant, int32, PageLimit, prefixedId, text, Timestamp, trimmedText } from './common.js';
import { EmailAddress, StoredEmail } from './email.js';
import { Metadata, MetadataPatch, StoredMetadata } from './metadata.js';
import { visibleName } from './visible-text.js';
import { Accommodations, AccommodationsInput, CompetencyScore, InterviewLanguage, MAX_EVALUATION_VERSIONS, Questions, QuestionsInput, QuestionTextInput, Rubric, RubricInput } from './interviewer.js';

// Resources of the recruiting service (PRODUCT.md §7). Limits from §4. Each field has one schema,
// used by the input that sets it and by the resource that returns it, so the OpenAPI document
// states every limit once, the one the server enforces.
export const CandidateId = prefixedId(ID_PREFIXES.candidate);
export const PositionId = prefixedId(ID_PREFIXES.position);
export const InterviewId = prefixedId(ID_PREFIXES.interview);

/** A name or title as stored and returned; requests take NameInput, which also needs a visible character. */
export const Name = trimmedText(200);
/** A name or title a client sends (issue 18 item 6). */
export const NameInput = visibleName(200);
const ExternalId = trimmedText(200).describe('Your system\'s id for this record');
const Phone = trimmedText(40, 3);
/** Long free text: descriptions (PRODUCT.md §4). */
export const Description = text().max(20_000);

/** Query-string timestamp filter: an ISO 8601 instant, e.g. 2026-01-31T00:00:00Z. */
const InstantFilter = Instant;

/** Incremental sync (PRODUCT.md §5): the watermark, microseconds allowed. */
const UpdatedAfter = InstantFilter.describe(
  'Incremental sync: only records changed after this instant, ordered by `(updatedAt, id)` ascending; every page with items links to the next, and an empty page means caught up. A change is listed once it is a few seconds old (10 s by default: the commit-safety lag), so none is ever passed over (docs/api.md)',
).optional();

/** The sync watermark a record shows (PRODUCT.md §5): the database's value, in microseconds. */
const SyncUpdatedAt = Timestamp.describe(
  'When the record last changed, in microseconds (`2026-11-22T21:48:37.612345Z`); `updatedAfter=<this>` resumes a sync right after it',
);

export const Candidate = z
  .object({
    id: CandidateId,
    email: StoredEmail,
    name: Name,
    phone: Phone.nullable(),
    externalId: ExternalId.nullable(),
    metadata: StoredMetadata,
    createdAt: Timestamp,
    updatedAt: SyncUpdatedAt,
  })
  .meta({ id: 'Candidate' });
export type Candidate = z.infer<typeof Candidate>;

export const CreateCandidateBody = z
  .object({
    email: EmailAddress,
    name: NameInput,
    phone: Phone.optional(),
    externalId: ExternalId.optional(),
    metadata: Metadata.optional(),
  })
  .strict()
  .meta({ id: 'CreateCandidateBody' });
export type CreateCandidateBody = z.infer<typeof CreateCandidateBody>;

/**
 * PATCH /candidates/{id}: any of the fields; `metadata` merges into the stored map, and a key
 * given as `null` is removed. `phone` and `externalId` take `null` to clear them.
 */
export const UpdateCandidateBody = z
  .object({
    email: EmailAddress.optional(),
    name: NameInput.optional(),
    phone: Phone.nullable().optional(),
    externalId: ExternalId.nullable().optional(),
    metadata: MetadataPatch.optional(),
  })
  .strict()
  .meta({ id: 'UpdateCandidateBody' });
export type UpdateCandidateBody = z.infer<typeof UpdateCandidateBody>;

export const ListQuery = z.object({ limit: PageLimit, cursor: Cursor.optional() });

export const ListCandidatesQuery = ListQuery.extend({
  email: trimmedText(254).describe('Exact e-mail, case-insensitive').optional(),
  externalId: ExternalId.optional(),
  createdAfter: InstantFilter.describe('Only candidates created after this instant').optional(),
  createdBefore: InstantFilter.describe('Only candidates created before this instant').optional(),
  updatedAfter: UpdatedAfter,
}).strict();
export type ListCandidatesQuery = z.infer<typeof ListCandidatesQuery>;

/**
 * The console's candidate list (tRPC only: PRODUCT.md §5 gives the REST list no search parameter,
 * and unknown ones are refused there). `search` matches by word prefix, case-insensitive: every
 * word of it must begin a word of the name or e-mail ("ann smi" finds Ann Smith; "example"
 * finds ann@example.com). Punctuation separates words; accents count.
 */
export const CandidateSearch = trimmedText(200).describe('Words that each begin a word of the name or e-mail, case-insensitive');
export const SearchCandidatesQuery = ListCandidatesQuery.extend({ search: CandidateSearch.optional() }).strict();
export type SearchCandidatesQuery = z.infer<typeof SearchCandidatesQuery>;

/** What a position's AI interview asks: 0–20 questions (PRODUCT.md §7). */
const Question = trimmedText(1000);
const InterviewQuestions = z.array(Question).max(20);
/** The questions a request writes: each with a visible character (responses read older rows as stored). */
const InterviewQuestionsInput = z.array(QuestionTextInput).max(20);

export const EmploymentType = z.enum(['full_time', 'part_time', 'contract', 'internship', 'temporary']);
export const PositionStatus = z.enum(['open', 'closed']);

export const Position = z
  .object({
    id: PositionId,
    title: Name,
    description: Description.nullable(),
    department: Name.nullable(),
    location: Name.nullable(),
    employmentType: EmploymentType,
    status: PositionStatus,
    externalId: ExternalId.nullable(),
    interviewQuestions: InterviewQuestions.describe('The texts of `questions`, in order (kept for v1 clients)'),
    rubric: Rubric.describe('The employer\'s rubric the AI scores against; a position created without one has the default rubric (docs/api.md)'),
    questions: Questions.describe('What the AI interview asks, with the competencies each question is about; a default set is asked when empty'),
    createdAt: Timestamp,
    updatedAt: SyncUpdatedAt,
  })
  .meta({ id: 'Position' });
export type Position = z.infer<typeof Position>;

export const CreatePositionBody = z
  .object({
    title: NameInput,
    description: Description.optional(),
    department: NameInput.optional(),
    location: NameInput.optional(),
    employmentType: EmploymentType.default('full_time'),
    status: PositionStatus.default('open'),
    externalId: ExternalId.optional(),
    interviewQuestions: InterviewQuestionsInput.default([]).describe('0–20 questions; a default set is used when empty. Sets `questions` with defaults; give one of the two'),
    rubric: RubricInput.optional().describe('Without it the position gets the default rubric (docs/api.md)'),
    questions: QuestionsInput.optional(),
  })
  .strict()
  .meta({ id: 'CreatePositionBody' });
export type CreatePositionBody = z.infer<typeof CreatePositionBody>;

/** PATCH /positions/{id}: any field; `status: closed` stops new interviews (open ones go on). */
export const UpdatePositionBody = z
  .object({
    title: NameInput.optional(),
    description: Description.nullable().optional(),
    department: NameInput.nullable().optional(),
    location: NameInput.nullable().optional(),
    employmentType: EmploymentType.optional(),
    status: PositionStatus.optional(),
    externalId: ExternalId.nullable().optional(),
    interviewQuestions: InterviewQuestionsInput.optional().describe('0–20 questions; a default set is used when empty. Sets `questions` with defaults (a question whose text is unchanged keeps its settings); give one of the two'),
    rubric: RubricInput.optional().describe('Replaces the rubric: a new `version`'),
    questions: QuestionsInput.optional().describe('Replaces the questions: a new rubric `version`'),
  })
  .strict()
  .meta({ id: 'UpdatePositionBody' });
export type UpdatePositionBody = z.infer<typeof UpdatePositionBody>;

export const ListPositionsQuery = ListQuery.extend({ status: PositionStatus.optional(), updatedAfter: UpdatedAfter }).strict();
export type ListPositionsQuery = z.infer<typeof ListPositionsQuery>;

/** A page as a service returns it; the gateway turns nextCursor into `Link: rel="next"`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export const CancellationReason = trimmedText(1000);

/** An interview's length in whole minutes (PRODUCT.md §7). */
const Duration = int32(5, 180);

export const InterviewStatus = z.enum(['scheduled', 'in_progress', 'completed', 'cancelled', 'expired', 'declined']);
export type InterviewStatus = z.infer<typeof InterviewStatus>;

/** The candidate's agreement to the AI notice on the invite page (PRODUCT.md §10). */
export const InterviewConsent = z
  .object({
    givenAt: Timestamp,
    noticeVersion: z.string().max(100).describe('The version of the AI notice the candidate agreed to'),
  })
  .meta({ id: 'InterviewConsent' });

/** Who an interview or an enrollment card is about. */
export const CandidateSummary = z.object({ id: CandidateId, email: StoredEmail, name: Name });

export const Interview = z
  .object({
    id: InterviewId,
    title: Name,
    status: InterviewStatus,
    candidate: CandidateSummary,
    positionId: PositionId,
    duration: Duration.describe('Length in whole minutes'),
    language: InterviewLanguage,
    accommodations: Accommodations.describe('What the candidate is given beyond `duration`'),
    inviteUrl: z.url().max(2048).describe('The page where the candidate takes the interview; send it to the candidate'),
    expiresAt: Timestamp,
    startedAt: Timestamp.nullable(),
    completedAt: Timestamp.nullable(),
    cancelledAt: Timestamp.nullable(),
    cancellationReason: CancellationReason.nullable(),
    consent: InterviewConsent.nullable().describe('Set when the candidate agreed to the AI notice and started'),
    declinedAt: Timestamp.nullable().describe('Set when the candidate declined the AI interview and asked for a human alternative'),
    createdAt: Timestamp,
    updatedAt: SyncUpdatedAt,
  })
  .meta({ id: 'Interview' });
export type Interview = z.infer<typeof Interview>;

export const CreateInterviewBody = z
  .object({
    title: NameInput.optional().describe('Defaults to "<position title> interview"'),
    candidate: z
      .object({ email: EmailAddress, name: NameInput.optional().describe('Required when no candidate with this e-mail exists yet') })
      .strict(),
    positionId: PositionId,
    duration: Duration.default(30).describe('Whole minutes, 5–180'),
    expiresInDays: int32(1, 90).default(14).describe('The invite expires this many days after creation. An interview started before then can be finished until `expiresAt` plus its time budget'),
    language: InterviewLanguage.default('en'),
    accommodations: AccommodationsInput.optional().describe('Extra time for the candidate (e.g. an agreed accommodation); none by default'),
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
  updatedAfter: UpdatedAfter,
}).strict();
export type ListInterviewsQuery = z.infer<typeof ListInterviewsQuery>;

export const Recommendation = z.enum(['strong_no', 'no', 'mixed', 'yes', 'strong_yes']);
export type Recommendation = z.infer<typeof Recommendation>;
export const EvaluationStatus = z.enum(['pending', 'processing', 'completed', 'failed']);

/** The structured evaluation the AI produces (validated before it is stored). */
const Score = int32(0, 100);
const Summary = z.string().min(1).max(5000);
const Points = z.array(z.string().max(1000)).max(20);
const Competencies = z.array(z.object({ name: z.string().max(200), score: int32(1, 5), rationale: z.string().max(2000) })).max(20);
export const EvaluationResult = z.object({
  overallScore: Score,
  recommendation: Recommendation,
  summary: Summary,
  strengths: Points,
  concerns: Points,
  competencies: Competencies,
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

/** A candidate's answer on the invite page (≤ 10 000 characters), one per question. */
export const Answer = text().trim().min(1, 'every question needs an answer').max(10_000);
/** The turn an invite-page answer is for, as its form sends it back (a key, not checked as an id: an unknown one is a stale page). */
export const AnswerTurnKey = text().max(100);
export const InterviewAnswer = z.object({ question: Question, answer: Answer });

/** Why an AI step failed, shown on the evaluation or task (workflows cut the message to 2 000). */
export const Failure = z.object({ code: z.string().max(100), message: z.string().max(2000) });
/** The AI model that produced a result. */
export const ModelName = z.string().max(200);

export const ReviewDecision = z.enum(['advance', 'hold', 'reject']);
export const ReviewNote = trimmedText(5000);

/** Who decided: an API key (its name) or a console user. */
export const Reviewer = z.object({ type: z.enum(['user', 'api_key']), id: text().min(1).max(64), name: text().max(200) });
export type Reviewer = z.infer<typeof Reviewer>;

/** A person's decision on an evaluation (PRODUCT.md §10: the AI recommends, a person decides). */
export const EvaluationReview = z
  .object({ decision: ReviewDecision, note: ReviewNote.nullable(), reviewer: Reviewer, reviewedAt: Timestamp })
  .meta({ id: 'EvaluationReview' });

export const ReviewBody = z
  .object({
    decision: ReviewDecision,
    note: ReviewNote.nullable().optional().describe('Why; shown with the review (null or absent: no note)'),
    version: int32(1, MAX_EVALUATION_VERSIONS).optional().describe('The evaluation version decided on; default: the one GET …/evaluation returns'),
  })
  .strict()
  .meta({ id: 'ReviewBody' });
export type ReviewBody = z.infer<typeof ReviewBody>;

export const Evaluation = z
  .object({
    interviewId: InterviewId,
    status: EvaluationStatus,
    overallScore: Score.nullable(),
    recommendation: Recommendation.nullable(),
    summary: Summary.nullable(),
    strengths: Points,
    concerns: Points,
    competencies: Competencies,
    answers: z.array(InterviewAnswer).max(20),
    model: ModelName.nullable(),
    error: Failure.nullable(),
    completedAt: Timestamp.nullable(),
    review: EvaluationReview.nullable().describe('The latest decision a person made on this evaluation version; null until one is made'),
    version: int32(1, MAX_EVALUATION_VERSIONS).nullable().describe('1, 2, … per interview (re-runs make new versions); null while `pending`'),
    rubricVersion: int32(1, 2_000_000_000).nullable().describe('The rubric version scored against; null for an interview scheduled before rubrics existed (evaluated as before)'),
    promptVersion: z.string().max(100).nullable().describe('The version of the instructions the model was given'),
    competencyScores: z.array(CompetencyScore).max(8).nullable().describe('One entry per rubric competency, with verified evidence; null without a rubric or before completion'),
    droppedQuotes: int32(0, 1000).describe('Quotes the model gave that were refused: not found verbatim in that candidate turn (after NFC and whitespace folding), or beyond 3 per competency'),
    overallScoreReason: z.string().max(500).nullable().describe('Why `overallScore` is null on a completed evaluation (less than half of the rubric\'s weight had evidence)'),
  })
  .meta({ id: 'Evaluation' });
export type Evaluation = z.infer<typeof Evaluation>;

/** A candidate's evaluations (the console's profile): one per submitted interview, newest interview first. */
export const ListCandidateEvaluationsQuery = ListQuery.extend({ candidateId: CandidateId }).strict();
export type ListCandidateEvaluationsQuery = z.infer<typeof ListCandidateEvaluationsQuery>;
/** An interview's evaluation versions, newest first (at most MAX_EVALUATION_VERSIONS), in pages like every list. */
export const ListEvaluationVersionsQuery = ListQuery.extend({ interviewId: InterviewId }).strict();
export type ListEvaluationVersionsQuery = z.infer<typeof ListEvaluationVersionsQuery>;

export const FlowId = prefixedId(ID_PREFIXES.flow);
export const StageId = prefixedId(ID_PREFIXES.stage);
export const StageKind = z.enum(['screen', 'ai_interview', 'review', 'offer']);
export type StageKind = z.infer<typeof StageKind>;
const MAX_STAGES = 20;

export const HiringFlow = z
  .object({
    id: FlowId,
    name: Name,
    description: Description.nullable(),
    positionId: PositionId.nullable(),
    stages: z.array(z.object({ id: StageId, name: Name, kind: StageKind, position: int32(0, MAX_STAGES - 1) })).max(MAX_STAGES),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'HiringFlow' });
export type HiringFlow = z.infer<typeof HiringFlow>;

export const FlowInput = z
  .object({
    name: NameInput,
    description: Description.optional(),
    positionId: PositionId.optional(),
    stages: z.array(z.object({ name: NameInput, kind: StageKind }).strict()).min(1).max(MAX_STAGES),
  })
  .strict();
export type FlowInput = z.infer<typeof FlowInput>;

export const ListFlowsQuery = ListQuery.extend({}).strict();

export const EnrollmentId = prefixedId(ID_PREFIXES.enrollment);
export const EnrollmentStatus = z.enum(['active', 'completed', 'withdrawn']);
export type EnrollmentStatus = z.infer<typeof EnrollmentStatus>;
export const Enrollment = z
  .object({
    id: EnrollmentId,
    flowId: FlowId,
    candidateId: CandidateId,
    stageId: StageId,
    status: EnrollmentStatus,
    interviewId: InterviewId.nullable().describe('The AI interview scheduled when the candidate last entered an ai_interview stage'),
    enrolledAt: Timestamp,
    movedAt: Timestamp.describe('When the candidate last changed stage or the enrollment ended; `enrolledAt` until then'),
  })
  .meta({ id: 'Enrollment' });
export type Enrollment = z.infer<typeof Enrollment>;

/** An enrollment on the console's pipeline board: the card shows who it is. */
export const EnrollmentCard = Enrollment.extend({ candidate: CandidateSummary });
export type EnrollmentCard = z.infer<typeof EnrollmentCard>;

/** GET /hiring-flows/{id}/candidates (PRODUCT.md §7 "The pipeline"): newest enrollment first. */
export const ListEnrollmentsQuery = ListQuery.extend({
  stageId: StageId.describe('Only enrollments in this stage').optional(),
  status: EnrollmentStatus.optional(),
}).strict();
export type ListEnrollmentsQuery = z.infer<typeof ListEnrollmentsQuery>;

/** An enrollment on a candidate's profile in the console: which flow, and the stage it is in. */
export const CandidateEnrollment = Enrollment.extend({
  flow: z.object({ id: FlowId, name: Name }),
  stage: z.object({ id: StageId, name: Name, kind: StageKind }),
});
export type CandidateEnrollment = z.infer<typeof CandidateEnrollment>;

/** A candidate's enrollments in every flow, newest first (tRPC, the console's profile). */
export const ListCandidateEnrollmentsQuery = ListQuery.extend({ candidateId: CandidateId }).strict();
export type ListCandidateEnrollmentsQuery = z.infer<typeof ListCandidateEnrollmentsQuery>;

/** How an enrollment ends: it cannot be made `active` again. */
export const EnrollmentEnd = z.enum(['completed', 'withdrawn']);

/**
 * The fields of PATCH /hiring-flows/{id}/candidates/{enrollmentId}, before the rule that exactly
 * one is given (`exactlyOneMove`); the gateway adds its path parameters to these.
 */
export const MoveEnrollmentFields = z.object({
  stageId: StageId.optional().describe('Move the candidate to this stage of the flow'),
  status: EnrollmentEnd.optional().describe('End the enrollment: `completed` or `withdrawn`'),
});

export function exactlyOneMove(body: { stageId?: string | undefined; status?: string | undefined }): boolean {
  return (body.stageId === undefined) !== (body.status === undefined);
}
export const EXACTLY_ONE_MOVE = { message: 'give exactly one of stageId and status', path: ['stageId'] };

export const MoveEnrollmentBody = MoveEnrollmentFields.strict()
  .refine(exactlyOneMove, EXACTLY_ONE_MOVE)
  .meta({ id: 'MoveEnrollmentBody', description: 'Either `stageId` (move to that stage) or `status` (end the enrollment)' });
export type MoveEnrollmentBody = z.infer<typeof MoveEnrollmentBody>;

/** Someone to enroll by e-mail: the candidate with that e-mail, or a new one with this name. */
export const EnrollNewCandidate = z.object({ email: EmailAddress, name: NameInput }).strict();

export const EnrollBody = z
  .union([
    z.object({ candidateId: CandidateId }).strict(),
    z.object({ candidate: EnrollNewCandidate }).strict(),
  ])
  .meta({ id: 'EnrollBody', description: 'Either an existing `candidateId`, or a `candidate` to find by e-mail or create' });
export type EnrollBody = z.infer<typeof EnrollBody>;
