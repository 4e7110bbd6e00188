import { z } from 'zod';
import type { Kysely } from '@hireloop/platform';
import { Answer, InterviewStatus, text } from '@hireloop/contracts';
import type { RecruitingDB } from '../db.js';
import { systemProcedure, router } from '../trpc.js';
import { effectiveStatus, findByInviteToken, startInterview, submitInterview } from '../interviews/interviews.queries.js';
import type { InviteTokens } from '../interviews/invite-token.js';

const Token = text().min(20).max(100);

/** What the candidate's invite page shows: never ids, e-mails or anything of other candidates. */
export const InviteView = z.object({
  status: InterviewStatus,
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
export function inviteRouter(db: Kysely<RecruitingDB>, tokens: InviteTokens, taskQueue: string) {
  const view = async (token: string): Promise<InviteView> => {
    const row = await findByInviteToken(db, token);
    return {
      status: effectiveStatus(row),
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
    start: systemProcedure.input(z.object({ token: Token })).output(InviteView).mutation(async ({ input }) => {
      await startInterview(db, tokens, input.token);
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
