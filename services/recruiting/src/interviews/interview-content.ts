import { sql, type Kysely } from '@hireloop/platform';
import type { Db, RecruitingDB } from '../db.js';

/**
 * Removes what a candidate said and what was written about it from interviews: the answers, the
 * evaluation's text (summary, strengths, concerns, the competencies' rationales) and the
 * reviewer's note. Status, times, scores, the recommendation and the decision stay, for
 * aggregate counts. Used by erasure and by the answers retention; running it again changes nothing.
 */
export async function scrubInterviewContent(trx: Db, interviewIds: string[]): Promise<void> {
  if (interviewIds.length === 0) return;
  await trx.updateTable('recruiting.interviews').set({ answers: null }).where('id', 'in', interviewIds).where('answers', 'is not', null).execute();
  await trx
    .updateTable('recruiting.evaluations')
    .set({
      summary: null,
      strengths: '[]',
      concerns: '[]',
      competencies: sql<string>`(select coalesce(jsonb_agg(jsonb_set(c, '{rationale}', '""')), '[]'::jsonb) from jsonb_array_elements(competencies) c)`,
      review_note: null,
    })
    .where('interview_id', 'in', interviewIds)
    .execute();
}

const BATCH = 200;

/**
 * The answers retention (PRODUCT.md §10): answers and evaluation text of interviews completed
 * more than `retentionDays` ago are scrubbed, as an erasure would, a batch per transaction. Run
 * hourly by the `purge-recruiting` Temporal schedule. Returns how many interviews were scrubbed.
 */
export async function scrubExpiredAnswers(db: Kysely<RecruitingDB>, retentionDays: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('recruiting.interviews')
        .select('id')
        .where('answers', 'is not', null)
        .where('completed_at', '<', sql<Date>`now() - make_interval(days => ${retentionDays})`)
        .limit(BATCH)
        .forUpdate()
        .skipLocked()
        .execute();
      await scrubInterviewContent(trx, rows.map((r) => r.id));
      return rows.length;
    });
    total += n;
    if (n < BATCH) return total;
  }
}
