import { sql, type Kysely } from '@hireloop/platform';
import type { Db, RecruitingDB } from '../db.js';
import { deleteTranscripts } from './transcript.js';
import { finishBySql } from './time-budget.js';

/**
 * Removes what a candidate said and what was written about it from interviews: the transcript
 * (every turn, signals included), and in every evaluation version the text (summary, strengths,
 * concerns, the competencies' rationales, the evidence quotes) and the reviewer's note. Status,
 * times, scores, the recommendation, the decision, and the reason a score is missing (our own
 * words about the rubric's weights, never the candidate's: PRODUCT.md §12 says a missing score
 * states it) stay, for aggregate counts. Used by erasure and by the answers retention; running it again changes nothing.
 */
export async function scrubInterviewContent(trx: Db, interviewIds: string[]): Promise<void> {
  if (interviewIds.length === 0) return;
  // The interviews first: their rows stay locked until commit, so an answer or a follow-up being
  // stored (read FOR SHARE, only while not scrubbed: transcript.ts) either committed before, and
  // the delete below sees it, or waits and then finds the interview scrubbed. Turns deleted
  // first would let one slip in between the two statements and outlive the scrub.
  await trx.updateTable('recruiting.interviews').set({ answers: null, content_scrubbed_at: sql<Date>`coalesce(content_scrubbed_at, now())` }).where('id', 'in', interviewIds).execute();
  await deleteTranscripts(trx, interviewIds);
  await trx
    .updateTable('recruiting.evaluations')
    .set({
      summary: null,
      strengths: '[]',
      concerns: '[]',
      competencies: sql<string>`(select coalesce(jsonb_agg(jsonb_set(c, '{rationale}', '""')), '[]'::jsonb) from jsonb_array_elements(competencies) c)`,
      competency_scores: sql<string>`(select jsonb_agg(c || '{"rationale": "", "evidence": []}'::jsonb) from jsonb_array_elements(competency_scores) c)`,
      review_note: null,
    })
    .where('interview_id', 'in', interviewIds)
    .execute();
}

const BATCH = 200;

/**
 * The answers retention (PRODUCT.md §10, §12): the transcript and evaluation text of interviews
 * completed more than `retentionDays` ago are scrubbed, as an erasure would, a batch per
 * transaction; so are the turns of an interview that was never completed (cancelled, or expired
 * mid-conversation) once it can no longer be answered (`expires_at` plus its budget, the latest
 * its transcript can change) more than `retentionDays` ago. Run hourly by the `purge-recruiting`
 * Temporal schedule. Returns how many interviews were scrubbed.
 */
export async function scrubExpiredAnswers(db: Kysely<RecruitingDB>, retentionDays: number): Promise<number> {
  const before = sql<Date>`now() - make_interval(days => ${retentionDays})`;
  const completed = (trx: Db) =>
    trx
      .selectFrom('recruiting.interviews as i')
      .select('i.id')
      .where('i.completed_at', 'is not', null)
      .where('i.content_scrubbed_at', 'is', null)
      .where('i.completed_at', '<', before);
  const unfinished = (trx: Db) =>
    trx
      .selectFrom('recruiting.interviews as i')
      .select('i.id')
      .where('i.completed_at', 'is', null)
      .where('i.content_scrubbed_at', 'is', null)
      // Implied by the next line (the budget is never negative); it lets the partial index serve.
      .where('i.expires_at', '<', before)
      .where(finishBySql('i'), '<', before)
      .where((eb) => eb.exists(eb.selectFrom('recruiting.interview_turns as t').select('t.id').whereRef('t.interview_id', '=', 'i.id')));
  let total = 0;
  for (const candidates of [completed, unfinished]) {
    for (;;) {
      const n = await db.transaction().execute(async (trx) => {
        const rows = await candidates(trx).limit(BATCH).forUpdate('i').skipLocked().execute();
        await scrubInterviewContent(trx, rows.map((r) => r.id));
        return rows.length;
      });
      total += n;
      if (n < BATCH) break;
    }
  }
  return total;
}
