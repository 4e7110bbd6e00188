import type { ColumnType, Generated, Kysely, Transaction } from '@hireloop/platform';
import type { Competency, CompetencyScore, FollowUpSkipped, InterviewLanguage, Question, TurnSignals } from '@hireloop/contracts';

type Timestamp = ColumnType<Date, Date | undefined, Date>;
type Json<T> = ColumnType<T, string, string>;

export interface CandidatesTable {
  id: string;
  organization_id: string;
  email: string;
  name: string;
  phone: string | null;
  source: Generated<string>;
  external_id: string | null;
  metadata: Json<Record<string, string>>;
  /** Set by DELETE /candidates/{id}: from then on the candidate and its interviews are 404. */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PositionsTable {
  id: string;
  organization_id: string;
  title: string;
  description: string | null;
  department: string | null;
  location: string | null;
  employment_type: string;
  status: 'open' | 'closed';
  source: Generated<string>;
  external_id: string | null;
  /** No longer read or written (migration 0018): `questions` holds the questions. */
  interview_questions: Generated<unknown>;
  /** The current rubric version; its competencies and questions, as in rubric_versions. */
  rubric_version: number;
  competencies: Json<Competency[]>;
  questions: Json<Question[]>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Every version of every position's rubric, never changed once written: interviews pin one. */
export interface RubricVersionsTable {
  position_id: string;
  version: number;
  organization_id: string;
  competencies: Json<Competency[]>;
  questions: Json<Question[]>;
  created_at: Timestamp;
}

/** The transcript (PRODUCT.md §12): one row per turn, stored once per (interview, seq). */
export interface InterviewTurnsTable {
  id: string;
  organization_id: string;
  interview_id: string;
  seq: number;
  role: 'interviewer' | 'candidate';
  kind: 'question' | 'follow_up' | 'answer';
  question_id: string;
  text: string;
  at: Date;
  signals: ColumnType<TurnSignals | null, string | null | undefined, string | null>;
  follow_up_skipped: ColumnType<FollowUpSkipped | null, FollowUpSkipped | null | undefined, FollowUpSkipped | null>;
}

export interface InterviewsTable {
  id: string;
  organization_id: string;
  title: string;
  status: 'scheduled' | 'in_progress' | 'completed' | 'cancelled' | 'expired' | 'declined';
  candidate_id: string;
  position_id: string;
  duration_minutes: number;
  /** The interview's language (INTERVIEW_LANGUAGES): page texts, the AI notice, follow-ups. */
  language: ColumnType<InterviewLanguage, InterviewLanguage | undefined, InterviewLanguage>;
  /** Extra time on top of the duration, 0–100 percent (PRODUCT.md §12 "Time"). */
  extra_time_percent: ColumnType<number, number | undefined, number>;
  invite_token_hash: string;
  /** The token sealed with INVITE_TOKEN_KEYS (null only before the start-up backfill). */
  invite_token_sealed: string | null;
  /** The question texts, as shown (kept for the invite page). */
  questions: Json<string[]>;
  /** Emptied by migration 0018 and no longer written: the transcript (interview_turns) holds the answers. */
  answers: ColumnType<string[] | null, string | null | undefined, string | null>;
  /** The rubric version pinned at scheduling; null for an interview scheduled before rubrics. */
  rubric_version: number | null;
  /** The questions pinned at scheduling (ids, competencies, follow-ups); null as rubric_version. */
  pinned_questions: ColumnType<Question[] | null, string | null | undefined, string | null>;
  /** When the transcript and evaluation text were scrubbed (erasure or answers retention). */
  content_scrubbed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  expires_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  cancellation_reason: string | null;
  consent_given_at: Date | null;
  consent_notice_version: string | null;
  declined_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EvaluationsTable {
  interview_id: string;
  /** 1, 2, … per interview: every re-run is a new version (at most MAX_EVALUATION_VERSIONS). */
  version: number;
  rubric_version: number | null;
  prompt_version: string | null;
  competency_scores: ColumnType<CompetencyScore[] | null, string | null | undefined, string | null>;
  dropped_quotes: Generated<number>;
  overall_score_reason: string | null;
  organization_id: string;
  status: 'processing' | 'completed' | 'failed';
  overall_score: number | null;
  recommendation: string | null;
  summary: string | null;
  strengths: Json<string[]>;
  concerns: Json<string[]>;
  competencies: Json<{ name: string; score: number; rationale: string }[]>;
  model: string | null;
  error: ColumnType<{ code: string; message: string } | null, string | null, string | null>;
  completed_at: Date | null;
  review_decision: 'advance' | 'hold' | 'reject' | null;
  review_note: string | null;
  reviewer_type: 'user' | 'api_key' | null;
  reviewer_id: string | null;
  reviewer_name: string | null;
  reviewed_at: Date | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface HiringFlowsTable {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  position_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FlowStagesTable {
  id: string;
  flow_id: string;
  name: string;
  kind: 'screen' | 'ai_interview' | 'review' | 'offer';
  position: number;
}

export interface EnrollmentsTable {
  id: string;
  organization_id: string;
  flow_id: string;
  candidate_id: string;
  stage_id: string;
  status: 'active' | 'completed' | 'withdrawn';
  interview_id: string | null;
  enrolled_at: Timestamp;
  moved_at: Timestamp;
}

export interface AtsStageMappingsTable {
  organization_id: string;
  source: string;
  stage: string;
  action: 'ai_interview';
  created_at: Timestamp;
}

/** The latest ATS event applied per subject (ats/ats-order.ts). */
export interface AtsSyncMarksTable {
  organization_id: string;
  source: string;
  subject: string;
  candidate_id: string;
  occurred_at: Timestamp;
  closed_as: 'rejected' | 'hired' | null;
}

export interface RecruitingDB {
  'recruiting.ats_stage_mappings': AtsStageMappingsTable;
  'recruiting.ats_sync_marks': AtsSyncMarksTable;
  'recruiting.interviews': InterviewsTable;
  'recruiting.evaluations': EvaluationsTable;
  'recruiting.hiring_flows': HiringFlowsTable;
  'recruiting.flow_stages': FlowStagesTable;
  'recruiting.enrollments': EnrollmentsTable;
  'recruiting.candidates': CandidatesTable;
  'recruiting.positions': PositionsTable;
  'recruiting.rubric_versions': RubricVersionsTable;
  'recruiting.interview_turns': InterviewTurnsTable;
}

export type Db = Kysely<RecruitingDB> | Transaction<RecruitingDB>;
export const SCHEMA = 'recruiting';
