import { AppError, newId } from '@hireloop/platform';
import { ID_PREFIXES, type Competency, type ErrorDetail, type Question, type QuestionInput, type Rubric } from '@hireloop/contracts';
import type { Db } from '../db.js';

/** A rubric as stored: descriptions are null when absent, so two equal rubrics compare equal. */
export type StoredCompetency = Competency & { description: string | null };
export function normalizedCompetencies(competencies: Competency[]): StoredCompetency[] {
  return competencies.map((c) => ({ key: c.key, name: c.name, description: c.description ?? null, weight: c.weight, levels: [...c.levels] }));
}

export interface RubricState {
  version: number;
  competencies: Competency[];
  questions: Question[];
}

/**
 * The questions a client wrote, resolved against the position's current ones and the rubric
 * they will belong to (PRODUCT.md §12): an `id` keeps an existing question's id (one the
 * position does not have is 422), a new question gets a new id, and every competency a question
 * names must be a key of the rubric. Each refusal names its field in `details`.
 */
export function resolveQuestions(input: QuestionInput[], current: Question[], competencies: Competency[], field = 'questions'): Question[] {
  const keys = new Set(competencies.map((c) => c.key));
  const known = new Set(current.map((q) => q.id));
  const details: ErrorDetail[] = [];
  const used = new Set<string>();
  const questions = input.map((q, i) => {
    if (q.id !== undefined && (!known.has(q.id) || used.has(q.id))) {
      details.push({ path: `${field}.${i}.id`, message: used.has(q.id) ? 'the same id twice' : `the position has no question ${q.id}; omit the id for a new question` });
    }
    if (q.id) used.add(q.id);
    (q.competencies ?? []).forEach((key, j) => {
      if (!keys.has(key)) details.push({ path: `${field}.${i}.competencies.${j}`, message: `the rubric has no competency "${key}"` });
    });
    return { id: q.id ?? newId(ID_PREFIXES.question), text: q.text, competencies: [...new Set(q.competencies ?? [])], maxFollowUps: q.maxFollowUps ?? 1 };
  });
  if (details.length) throw new AppError('validation_failed', 'The questions do not fit the rubric.', details);
  return questions;
}

/**
 * `interviewQuestions` written as strings (PRODUCT.md §12): a text the position already asks
 * keeps that question (id, competencies, follow-ups); a new text gets the defaults.
 */
export function questionsFromTexts(texts: string[], current: Question[]): Question[] {
  const free = [...current];
  return texts.map((text) => {
    const i = free.findIndex((q) => q.text === text);
    if (i >= 0) return free.splice(i, 1)[0]!;
    return { id: newId(ID_PREFIXES.question), text, competencies: [], maxFollowUps: 1 };
  });
}

/** A rubric change that leaves questions naming a removed competency: 422 on those questions. */
export function checkQuestionsFit(questions: Question[], competencies: Competency[], sentAs: 'questions' | 'interviewQuestions' = 'questions'): void {
  const keys = new Set(competencies.map((c) => c.key));
  const details: ErrorDetail[] = [];
  questions.forEach((q, i) =>
    q.competencies.forEach((key, j) => {
      if (keys.has(key)) return;
      // Through interviewQuestions, a question kept by its text keeps its competencies: name the text the client sent.
      if (sentAs === 'interviewQuestions') details.push({ path: `interviewQuestions.${i}`, message: `this question keeps its competency "${key}", which the new rubric does not have; reword it, or send questions` });
      else details.push({ path: `questions.${i}.competencies.${j}`, message: `the new rubric has no competency "${key}"; send questions without it` });
    }),
  );
  if (details.length) throw new AppError('validation_failed', 'The position\'s questions name competencies the new rubric does not have.', details);
}

/** Records a rubric version (an interview pins one; rows are never changed). */
export async function insertRubricVersion(trx: Db, organizationId: string, positionId: string, state: RubricState, at: Date): Promise<void> {
  await trx
    .insertInto('recruiting.rubric_versions')
    .values({
      position_id: positionId,
      version: state.version,
      organization_id: organizationId,
      competencies: JSON.stringify(state.competencies),
      questions: JSON.stringify(state.questions),
      created_at: at,
    })
    .execute();
}

/** A pinned rubric version of a position; null for a version that does not exist. */
export async function rubricVersion(db: Db, positionId: string, version: number): Promise<Rubric | null> {
  const row = await db.selectFrom('recruiting.rubric_versions').select(['version', 'competencies']).where('position_id', '=', positionId).where('version', '=', version).executeTakeFirst();
  return row ? { version: row.version, competencies: normalizedCompetencies(row.competencies) } : null;
}
