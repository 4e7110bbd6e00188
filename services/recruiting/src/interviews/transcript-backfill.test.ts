import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { migrateSchema, sql, type Kysely } from '@hireloop/platform';
import { ownKyselyDatabase } from '@hireloop/platform/own-database';
import { migrations } from '../../migrations/index.js';
import { SCHEMA, type RecruitingDB } from '../db.js';
import { DEFAULT_RUBRIC_COMPETENCIES } from '../positions/default-rubric.js';
import { legacyQuestionId, questionPlanOf, scriptedAnswers, toTurn, turnRows } from './transcript.js';

const before0018 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0018'));

/**
 * Migration 0018 on a database as it was before rubrics (CLARIFICATIONS 2026-11-26 "The
 * interviewer"): positions get the default rubric as version 1, submitted interviews get their
 * questions and answers as turns with ids derived from the interview id (nothing guessed), and
 * running it again changes nothing.
 */
describe('migration 0018 on a database from before rubrics', () => {
  let db: Kysely<RecruitingDB>;
  let close: () => Promise<void>;
  const interviewId = 'int_00LegacyInterview00001';
  const scrubbedId = 'int_00LegacyInterview00002';
  before(async () => {
    ({ db, close } = await ownKyselyDatabase<RecruitingDB>('rubric_backfill'));
    await migrateSchema(db, SCHEMA, before0018);
    await sql`
      insert into recruiting.candidates (id, organization_id, email, name, metadata) values ('cand_00LegacyCandidate0001', 'org_x', 'a@example.com', 'Ada', '{}');
      insert into recruiting.positions (id, organization_id, title, employment_type, status, interview_questions)
        values ('pos_00LegacyPosition00001', 'org_x', 'Old job', 'full_time', 'open', '["Why us?", "Hardest bug?"]');
      insert into recruiting.interviews (id, organization_id, title, status, candidate_id, position_id, duration_minutes, invite_token_hash, questions, answers, expires_at, started_at, completed_at)
        values ('${sql.raw(interviewId)}', 'org_x', 'Old', 'completed', 'cand_00LegacyCandidate0001', 'pos_00LegacyPosition00001', 30, 'h1', '["Why us?", "Hardest bug?"]', '["The mission.", "A deadlock."]', now() + interval '1 day', now() - interval '1 hour', now()),
               ('${sql.raw(scrubbedId)}', 'org_x', 'Old', 'completed', 'cand_00LegacyCandidate0001', 'pos_00LegacyPosition00001', 30, 'h2', '["Why us?"]', null, now() + interval '1 day', now() - interval '1 hour', now() - interval '400 days');
      insert into recruiting.evaluations (interview_id, organization_id, status, overall_score) values ('${sql.raw(interviewId)}', 'org_x', 'completed', 70);
    `.execute(db);
    await migrateSchema(db, SCHEMA, migrations);
  });
  after(async () => {
    await close();
  });

  it('a position gets the default rubric as version 1 and its questions with ids', async () => {
    const p = await db.selectFrom('recruiting.positions').selectAll().executeTakeFirstOrThrow();
    assert.equal(p.rubric_version, 1);
    assert.deepEqual(p.competencies, DEFAULT_RUBRIC_COMPETENCIES, 'the frozen copy is the code\'s default rubric');
    assert.deepEqual(p.questions.map((q) => [q.id, q.text, q.competencies, q.maxFollowUps]), [['q_00LegacyPosition0000101', 'Why us?', [], 1], ['q_00LegacyPosition0000102', 'Hardest bug?', [], 1]]);
    const version = await db.selectFrom('recruiting.rubric_versions').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([version.position_id, version.version, version.questions], [p.id, 1, p.questions]);
  });

  it('a submitted interview\'s questions and answers become turns; its evaluation is version 1 with no rubric', async () => {
    const turns = (await turnRows(db, interviewId)).map(toTurn);
    assert.deepEqual(turns.map((t) => [t.id, t.role, t.kind, t.questionId, t.text]), [
      ['turn_00LegacyInterview00001Q01', 'interviewer', 'question', legacyQuestionId(interviewId, 0), 'Why us?'],
      ['turn_00LegacyInterview00001A01', 'candidate', 'answer', legacyQuestionId(interviewId, 0), 'The mission.'],
      ['turn_00LegacyInterview00001Q02', 'interviewer', 'question', legacyQuestionId(interviewId, 1), 'Hardest bug?'],
      ['turn_00LegacyInterview00001A02', 'candidate', 'answer', legacyQuestionId(interviewId, 1), 'A deadlock.'],
    ]);
    const row = await db.selectFrom('recruiting.interviews').selectAll().where('id', '=', interviewId).executeTakeFirstOrThrow();
    assert.deepEqual([row.answers, row.rubric_version, row.pinned_questions, row.content_scrubbed_at], [null, null, null, null], 'the transcript owns the words now');
    assert.deepEqual(questionPlanOf(row).map((q) => q.id), [legacyQuestionId(interviewId, 0), legacyQuestionId(interviewId, 1)], 'the same question ids as the turns');
    assert.deepEqual(scriptedAnswers(turns), [{ question: 'Why us?', answer: 'The mission.' }, { question: 'Hardest bug?', answer: 'A deadlock.' }]);
    const evaluation = await db.selectFrom('recruiting.evaluations').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([evaluation.version, evaluation.rubric_version, evaluation.dropped_quotes, evaluation.overall_score], [1, null, 0, 70]);
  });

  it('an interview whose answers were already scrubbed gets no turns and counts as scrubbed', async () => {
    assert.equal((await turnRows(db, scrubbedId)).length, 0);
    const row = await db.selectFrom('recruiting.interviews').select('content_scrubbed_at').where('id', '=', scrubbedId).executeTakeFirstOrThrow();
    assert.ok(row.content_scrubbed_at);
  });

  it('running the migration again changes nothing', async () => {
    // 0018 and every later migration forgotten, so that they all run again (kysely keeps order).
    await sql`delete from recruiting.kysely_migration where name >= '0018'`.execute(db);
    await migrateSchema(db, SCHEMA, migrations);
    assert.equal((await turnRows(db, interviewId)).length, 4);
    assert.equal((await db.selectFrom('recruiting.rubric_versions').selectAll().execute()).length, 1);
  });
});
