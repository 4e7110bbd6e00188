import { z } from 'zod';
import type { Kysely } from '@hireloop/platform';
import { Answer, AnswerTurnKey, InviteToken as Token, text, TurnSignals } from '@hireloop/contracts';
import type { RecruitingDB } from '../db.js';
import { systemProcedure, router } from '../trpc.js';
import { declineInterview, startInterview, submitInterview } from '../interviews/interviews.queries.js';
import type { InviteTokens } from '../interviews/invite-token.js';
import { answerTurn, settle, type Interviewer } from '../interviewer/conversation.queries.js';
import { InviteView, inviteView } from './invite-view.js';

export { InviteView } from './invite-view.js';

/**
 * The candidate's side of an interview, called by the gateway's invite page with the token from
 * the URL (the token is the candidate's only credential, so these are platform-only procedures).
 */
export function inviteRouter(db: Kysely<RecruitingDB>, tokens: InviteTokens, interviewer: Interviewer, retentionAnswersDays: number) {
  /** The page as of now, with the conversation settled on a turn the candidate can answer. */
  const view = async (token: string): Promise<InviteView> => inviteView(await settle(db, tokens, interviewer, token), retentionAnswersDays);
  return router({
    view: systemProcedure.input(z.object({ token: Token })).output(InviteView).query(({ input }) => view(input.token)),
    /** Start only with consent: the version of the notice the candidate agreed to. The first question is asked. */
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
    /**
     * The answer to the current turn, keyed by that turn: sent twice, it is stored once
     * (`duplicate`); for a turn that is not the current one nothing is stored (`stale`), and the
     * view shows the current turn. With the answer stored, the next turn is ready. The view
     * comes back for a stale turn, and for every outcome when `withView` asks for it (the page
     * answered in place of a redirect: one call for the turn, not a second for the page).
     */
    answer: systemProcedure
      .input(z.object({ token: Token, turnId: AnswerTurnKey, answer: Answer, signals: TurnSignals.optional(), withView: z.boolean().optional() }))
      .output(z.object({ outcome: z.enum(['accepted', 'duplicate', 'stale']), view: InviteView.nullable() }))
      .mutation(async ({ input }) => {
        const { outcome, conversation } = await answerTurn(db, tokens, interviewer, input.token, { turnId: input.turnId, text: input.answer, signals: input.signals });
        if (outcome !== 'stale' && !input.withView) return { outcome, view: null };
        // The turn this answer asked is the page's: no second read of what the answer just wrote.
        return { outcome, view: conversation ? inviteView(conversation, retentionAnswersDays) : await view(input.token) };
      }),
    /** Every scripted question answered at once, without follow-ups (tools and tests; see submitInterview). */
    submit: systemProcedure
      .input(z.object({ token: Token, answers: z.array(Answer).max(20) }))
      .output(InviteView)
      .mutation(async ({ input }) => {
        await submitInterview(db, tokens, input.token, input.answers, interviewer.taskQueue);
        return view(input.token);
      }),
  });
}
