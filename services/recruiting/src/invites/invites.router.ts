import { z } from 'zod';
import type { Kysely } from '@hireloop/platform';
import { Answer, InterviewStatus, InviteToken as Token, text } from '@hireloop/contracts';
import type { RecruitingDB } from '../db.js';
import { systemProcedure, router } from '../trpc.js';
import { declineInterview, findByInviteToken, startInterview, submitInterview } from '../interviews/interviews.queries.js';
import { effectiveStatus } from '../interviews/status.js';
import { aiNotice } from '../interviews/ai-notice.js';
import type { InviteTokens } from '../interviews/invite-token.js';

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
  /** The AI notice (PRODUCT.md §10); `{organization}` in its paragraphs is the organization's name. */
  notice: z.object({ version: z.string(), paragraphs: z.array(z.string()) }),
  title: z.string(),
  positionTitle: z.string(),
  candidateName: z.string(),
  duration: z.number().int(),
  questions: z.array(z.string()),
  expiresAt: z.string(),
});
export type InviteView = z.infer<typeof InviteView>;

/**
 * The candidate's side of an interview, called by the gateway's invite page with the token from
 * the URL (the token is the candidate's only credential, so these are platform-only procedures).
 */
export function inviteRouter(db: Kysely<RecruitingDB>, tokens: InviteTokens, taskQueue: string, retentionAnswersDays: number) {
  const notice = aiNotice(retentionAnswersDays);
  const view = async (token: string): Promise<InviteView> => {
    const row = await findByInviteToken(db, token);
    return {
      status: effectiveStatus(row),
      organizationId: row.organization_id,
      consentGiven: row.consent_given_at !== null,
      notice,
      title: row.title,
      positionTitle: row.position_title,
      candidateName: row.candidate_name,
      duration: row.duration_minutes,
      questions: row.questions,
      expiresAt: row.expires_at.toISOString(),
    };
  };
  return router({
    view: systemProcedure.input(z.object({ token: Token })).output(InviteView).query(({ input }) => view(input.token)),
    /** Start only with consent: the version of the notice the candidate agreed to. */
    start: systemProcedure
      .input(z.object({ token: Token, consent: z.object({ noticeVersion: text().min(1).max(100) }) }))
      .output(InviteView)
      .mutation(async ({ input }) => {
        await startInterview(db, tokens, input.token, input.consent.noticeVersion);
        return view(input.token);
      }),
    decline: systemProcedure.input(z.object({ token: Token })).output(InviteView).mutation(async ({ input }) => {
      await declineInterview(db, tokens, input.token);
      return view(input.token);
    }),
    submit: systemProcedure
      .input(z.object({ token: Token, answers: z.array(Answer).max(20) }))
      .output(InviteView)
      .mutation(async ({ input }) => {
        await submitInterview(db, tokens, input.token, input.answers, taskQueue);
        return view(input.token);
      }),
  });
}
