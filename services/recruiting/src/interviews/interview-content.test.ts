import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type RecruitingDB } from '../db.js';
import { scrubInterviewContent } from './interview-content.js';
import { appendAnswer, askFirstQuestion, turnRows, type NewTurn } from './transcript.js';

/**
 * An answer stored without the interview's row lock (appendAnswer), and the first question asked
 * when an interview from before the conversation is reopened (askFirstQuestion), against the
 * scrub of an erasure or a retention: whichever comes first, no turn outlives the scrub.
 */
describe('a turn and the scrub of its interview', () => {
  let db: Kysely<RecruitingDB>;
  let close: () => Promise<void>;
  let n = 0;
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<RecruitingDB>('interview_content', 4));
    // The position as the seed API made it; migration 0018 gives it its rubric.
    await migrateSchema(db, SCHEMA, Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0018')));
    await sql`
      insert into recruiting.candidates (id, organization_id, email, name, metadata) values ('cand_00ScrubCandidate00001', 'org_x', 'a@example.com', 'Ada', '{}');
      insert into recruiting.positions (id, organization_id, title, employment_type, status, interview_questions)
        values ('pos_00ScrubPosition000001', 'org_x', 'Job', 'full_time', 'open', '["Why us?", "Hardest bug?"]');
    `.execute(db);
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  /** An interview in progress whose first question (seq 0) was asked. */
  async function inProgress(): Promise<string> {
    const id = `int_00ScrubInterview${String(++n).padStart(6, '0')}`;
    await sql`
      insert into recruiting.interviews (id, organization_id, title, status, candidate_id, position_id, duration_minutes, invite_token_hash, questions, expires_at, started_at)
        values (${id}, 'org_x', 'Interview', 'in_progress', 'cand_00ScrubCandidate00001', 'pos_00ScrubPosition000001', 30, ${`hash-${id}`}, '["Why us?", "Hardest bug?"]', now() + interval '1 day', now())
    `.execute(db);
    await sql`
      insert into recruiting.interview_turns (id, organization_id, interview_id, seq, role, kind, question_id, text, at)
        values (${`turn_${id}`}, 'org_x', ${id}, 0, 'interviewer', 'question', 'q_1', 'Why us?', now());
    `.execute(db);
    return id;
  }
  const answer = (): NewTurn => ({ seq: 1, role: 'candidate', kind: 'answer', questionId: 'q_1', text: 'Words of the candidate.', at: new Date() });
  const next = { id: 'q_2', text: 'Hardest bug?' };

  it('stored while a scrub is in flight, the answer waits for it and is not stored', async () => {
    const id = await inProgress();
    let storing: ReturnType<typeof appendAnswer> | undefined;
    await db.transaction().execute(async (trx) => {
      await scrubInterviewContent(trx, [id]);
      storing = appendAnswer(db, id, answer(), next);
      const first = await Promise.race([storing.then(() => 'stored'), sleep(300).then(() => 'waiting')]);
      assert.equal(first, 'waiting', 'the insert waits for the scrub to commit');
    });
    assert.deepEqual(await storing, []);
    assert.deepEqual(await turnRows(db, id), []);
  });

  it('stored before the scrub, the answer and its next question go with it', async () => {
    const id = await inProgress();
    assert.deepEqual((await appendAnswer(db, id, answer(), next)).map((t) => t.seq), [1, 2]);
    await db.transaction().execute((trx) => scrubInterviewContent(trx, [id]));
    assert.deepEqual(await turnRows(db, id), []);
    assert.deepEqual(await appendAnswer(db, id, { ...answer(), seq: 3 }, null), [], 'and nothing is stored after it');
  });

  const rowOf = async (id: string) => (await db.selectFrom('recruiting.interviews').select(['id', 'organization_id', 'questions', 'pinned_questions']).where('id', '=', id).executeTakeFirstOrThrow());

  it('the first question of a reopened interview is asked once, and never of a scrubbed one', async () => {
    const id = await inProgress();
    await sql`delete from recruiting.interview_turns where interview_id = ${id}`.execute(db);
    const row = await rowOf(id);
    await Promise.all([askFirstQuestion(db, row), askFirstQuestion(db, row)]);
    assert.deepEqual((await turnRows(db, id)).map((t) => [t.seq, t.text]), [[0, 'Why us?']]);

    await db.transaction().execute((trx) => scrubInterviewContent(trx, [id]));
    await askFirstQuestion(db, row);
    assert.deepEqual(await turnRows(db, id), [], 'a scrubbed interview gets no question back');
  });
});
