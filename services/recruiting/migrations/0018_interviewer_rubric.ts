import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after it has shipped.
// The AI interviewer (PRODUCT.md §12, CLARIFICATIONS 2026-11-26 "The interviewer"):
// - positions get a rubric and questions with ids; every change is a version, kept in
//   rubric_versions so that an interview can pin one. Positions that exist now get the fixed
//   default rubric (the frozen copy below) as version 1, and their questions from
//   interview_questions with ids derived from the position id.
// - interviews pin a rubric version and their questions at scheduling; those scheduled before
//   (rubric_version null) are evaluated as before.
// - the transcript is rows of turns, one per question or answer, stored once per (interview,
//   seq). Submitted interviews get their questions and answers as turns, with ids derived from
//   the interview id (questions shown at the start, answers given at completion), and the
//   answers column is emptied: the transcript owns the words from now on.
// - evaluations become versions per interview, with the evidence-backed scores and provenance.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists recruiting.rubric_versions (
      position_id text not null references recruiting.positions(id),
      version integer not null,
      organization_id text not null,
      competencies jsonb not null,
      questions jsonb not null,
      created_at timestamptz not null default date_trunc('milliseconds', now()),
      primary key (position_id, version)
    );

    alter table recruiting.positions
      add column if not exists rubric_version integer,
      add column if not exists competencies jsonb,
      add column if not exists questions jsonb;

    update recruiting.positions p set
      rubric_version = 1,
      competencies = ${sql.lit(COMPETENCIES)}::jsonb,
      questions = (
        select coalesce(jsonb_agg(jsonb_build_object(
          'id', 'q_' || substr(p.id, 5) || lpad(q.ord::text, 2, '0'),
          'text', q.text,
          'competencies', '[]'::jsonb,
          'maxFollowUps', 1) order by q.ord), '[]'::jsonb)
        from jsonb_array_elements_text(p.interview_questions) with ordinality q(text, ord)
      )
    where p.rubric_version is null;

    insert into recruiting.rubric_versions (position_id, version, organization_id, competencies, questions, created_at)
    select id, rubric_version, organization_id, competencies, questions, created_at from recruiting.positions
    on conflict do nothing;

    alter table recruiting.positions
      alter column rubric_version set not null,
      alter column competencies set not null,
      alter column questions set not null;

    alter table recruiting.interviews
      add column if not exists rubric_version integer,
      add column if not exists pinned_questions jsonb,
      add column if not exists content_scrubbed_at timestamptz;

    create table if not exists recruiting.interview_turns (
      id text primary key,
      organization_id text not null,
      interview_id text not null references recruiting.interviews(id),
      seq integer not null,
      role text not null check (role in ('interviewer', 'candidate')),
      kind text not null check (kind in ('question', 'follow_up', 'answer')),
      question_id text not null,
      text text not null,
      at timestamptz not null,
      signals jsonb,
      follow_up_skipped text check (follow_up_skipped in ('timeout', 'provider_error', 'invalid_output', 'forbidden_topic', 'budget')),
      unique (interview_id, seq)
    );

    -- Interviews whose answers a retention or an erasure already scrubbed have nothing to keep.
    update recruiting.interviews set content_scrubbed_at = now()
    where completed_at is not null and answers is null and content_scrubbed_at is null;

    insert into recruiting.interview_turns (id, organization_id, interview_id, seq, role, kind, question_id, text, at)
    select 'turn_' || substr(i.id, 5) || 'Q' || lpad(q.ord::text, 2, '0'), i.organization_id, i.id, (q.ord::integer - 1) * 2,
           'interviewer', 'question', 'q_' || substr(i.id, 5) || lpad(q.ord::text, 2, '0'), q.text, coalesce(i.started_at, i.completed_at, i.created_at)
    from recruiting.interviews i, jsonb_array_elements_text(i.questions) with ordinality q(text, ord)
    where i.answers is not null
    union all
    select 'turn_' || substr(i.id, 5) || 'A' || lpad(a.ord::text, 2, '0'), i.organization_id, i.id, (a.ord::integer - 1) * 2 + 1,
           'candidate', 'answer', 'q_' || substr(i.id, 5) || lpad(a.ord::text, 2, '0'), a.text, coalesce(i.completed_at, i.created_at)
    from recruiting.interviews i, jsonb_array_elements_text(i.answers) with ordinality a(text, ord)
    where i.answers is not null
    on conflict do nothing;

    update recruiting.interviews set answers = null where answers is not null;
    drop index if exists recruiting.interviews_completed_with_answers;
    create index if not exists interviews_completed_unscrubbed on recruiting.interviews (completed_at)
      where completed_at is not null and content_scrubbed_at is null;

    alter table recruiting.evaluations
      add column if not exists version integer not null default 1,
      add column if not exists rubric_version integer,
      add column if not exists prompt_version text,
      add column if not exists competency_scores jsonb,
      add column if not exists dropped_quotes integer not null default 0,
      add column if not exists overall_score_reason text;
    alter table recruiting.evaluations drop constraint if exists evaluations_pkey;
    alter table recruiting.evaluations add constraint evaluations_pkey primary key (interview_id, version);
  `.execute(db);
}

const COMPETENCIES = JSON.stringify([
        {
          "key": "communication",
          "name": "Communication",
          "description": "Explains ideas clearly, in a structure the listener can follow.",
          "weight": 1,
          "levels": [
            "Answers are unclear or off the question; the listener cannot follow them.",
            "Partly answers the question; the structure is hard to follow and key points are missing.",
            "Answers the question clearly, with some structure and a few specifics.",
            "Clear, well-structured answers with relevant specifics and examples.",
            "Concise, well-structured answers that adapt to the question, with precise examples and clear conclusions."
          ]
        },
        {
          "key": "problem_solving",
          "name": "Problem solving",
          "description": "Breaks problems down, weighs options and reaches sound decisions.",
          "weight": 1,
          "levels": [
            "No problem or approach described; no reasoning given.",
            "Describes a problem but not how it was analysed or solved.",
            "Describes a problem and a reasonable approach, with some reasoning about options.",
            "Breaks the problem down, compares options with their trade-offs, and explains the decision and its result.",
            "Analyses the root cause, weighs trade-offs with evidence or data, and shows a measurable result and what was learned."
          ]
        },
        {
          "key": "collaboration",
          "name": "Collaboration",
          "description": "Works with others: shares, listens, and resolves disagreement constructively.",
          "weight": 1,
          "levels": [
            "No mention of working with others, or blames others.",
            "Mentions a team but not their own part in working together.",
            "Describes working with colleagues and their own part in it.",
            "Describes listening to colleagues, resolving a disagreement constructively, and a shared outcome.",
            "Builds agreement across people or teams, helps others succeed, and leaves a lasting improvement to how the team works."
          ]
        },
        {
          "key": "ownership",
          "name": "Ownership and motivation",
          "description": "Takes responsibility for outcomes and shows genuine interest in the role.",
          "weight": 1,
          "levels": [
            "No example of taking responsibility; no interest in the role shown.",
            "Vague about their own responsibility or goals.",
            "Describes their own responsibility for a task and some goals for the role.",
            "Takes responsibility for an outcome end to end, with concrete goals for the role.",
            "Drives outcomes beyond their remit, learns from mistakes, and sets specific, ambitious goals for the role."
          ]
        }
      ]);
