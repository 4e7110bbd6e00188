import { z } from 'zod';
import { InterviewLanguage, InterviewStatus } from '@hireloop/contracts';
import type { InviteRow } from '../interviews/interviews.queries.js';
import { effectiveStatus, openUntil } from '../interviews/status.js';
import { budgetMs, finishBy, remainingSeconds } from '../interviews/time-budget.js';
import { aiNotice, collectsSignals } from '../interviews/ai-notice.js';
import type { Conversation } from '../interviewer/conversation.queries.js';

/** The turn the candidate answers now: a scripted question or a follow-up to it. */
export const InviteTurn = z.object({
  /** The key of the answer form: an answer is stored once per turn. */
  id: z.string(),
  kind: z.enum(['question', 'follow_up']),
  text: z.string(),
  /** 1-based number of the scripted question this turn belongs to. */
  questionNumber: z.number().int(),
});
export type InviteTurn = z.infer<typeof InviteTurn>;

/**
 * What the candidate's invite page shows: never e-mails or anything of other candidates. The
 * organization id is for the page to look up the organization's name (the notice's contact);
 * the page does not show it.
 */
export const InviteView = z.object({
  status: InterviewStatus,
  organizationId: z.string(),
  /** Whether the candidate agreed to the AI notice (an interview started before consent existed has not). */
  consentGiven: z.boolean(),
  /** The AI notice (PRODUCT.md §10) in the interview's language; `{organization}` in its paragraphs is the organization's name. */
  notice: z.object({ version: z.string(), paragraphs: z.array(z.string()) }),
  language: InterviewLanguage,
  title: z.string(),
  positionTitle: z.string(),
  candidateName: z.string(),
  duration: z.number().int(),
  /** The time budget in minutes: duration plus the accommodation's extra time. */
  budgetMinutes: z.number(),
  questionCount: z.number().int(),
  expiresAt: z.string(),
  /**
   * While in progress: seconds of the budget left, and when the interview can no longer be
   * finished; once expired after it was started, when that was (the page's "valid until").
   */
  remainingSeconds: z.number().int().nullable(),
  finishBy: z.string().nullable(),
  /** While in progress with consent: the turn to answer. */
  turn: InviteTurn.nullable(),
  /** Whether the page may record integrity signals (the consent named a notice that mentions them). */
  collectSignals: z.boolean(),
});
export type InviteView = z.infer<typeof InviteView>;

/** The invite page's view of an interview and its conversation, as `settle` read them. */
export function inviteView({ row, state }: Conversation<InviteRow>, retentionAnswersDays: number): InviteView {
  const status = effectiveStatus(row);
  const inProgress = status === 'in_progress';
  const current = inProgress && row.consent_given_at && state.phase === 'awaiting_answer' ? state : null;
  return {
    status,
    organizationId: row.organization_id,
    consentGiven: row.consent_given_at !== null,
    notice: aiNotice(row.language, retentionAnswersDays),
    language: row.language,
    title: row.title,
    positionTitle: row.position_title,
    candidateName: row.candidate_name,
    duration: row.duration_minutes,
    budgetMinutes: budgetMs(row) / 60_000,
    questionCount: row.questions.length,
    expiresAt: row.expires_at.toISOString(),
    remainingSeconds: inProgress ? remainingSeconds(row) : null,
    finishBy: inProgress ? openUntil(row).toISOString() : status === 'expired' && row.started_at ? finishBy(row).toISOString() : null,
    turn: current ? { id: current.turn.id, kind: current.turn.kind === 'follow_up' ? 'follow_up' : 'question', text: current.turn.text, questionNumber: current.questionIndex + 1 } : null,
    collectSignals: collectsSignals(row.consent_notice_version),
  };
}
