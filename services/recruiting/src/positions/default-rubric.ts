import type { Competency, InterviewLanguage, Question } from '@hireloop/contracts';

/**
 * The fixed default rubric (PRODUCT.md §12): what a position created without a rubric gets, as
 * version 1. Code, not AI; docs/api.md lists it. Migration 0018 holds a frozen copy for the
 * positions that existed before rubrics.
 */
export const DEFAULT_RUBRIC_COMPETENCIES: Competency[] = [
  {
    key: 'communication',
    name: 'Communication',
    description: 'Explains ideas clearly, in a structure the listener can follow.',
    weight: 1,
    levels: [
      'Answers are unclear or off the question; the listener cannot follow them.',
      'Partly answers the question; the structure is hard to follow and key points are missing.',
      'Answers the question clearly, with some structure and a few specifics.',
      'Clear, well-structured answers with relevant specifics and examples.',
      'Concise, well-structured answers that adapt to the question, with precise examples and clear conclusions.',
    ],
  },
  {
    key: 'problem_solving',
    name: 'Problem solving',
    description: 'Breaks problems down, weighs options and reaches sound decisions.',
    weight: 1,
    levels: [
      'No problem or approach described; no reasoning given.',
      'Describes a problem but not how it was analysed or solved.',
      'Describes a problem and a reasonable approach, with some reasoning about options.',
      'Breaks the problem down, compares options with their trade-offs, and explains the decision and its result.',
      'Analyses the root cause, weighs trade-offs with evidence or data, and shows a measurable result and what was learned.',
    ],
  },
  {
    key: 'collaboration',
    name: 'Collaboration',
    description: 'Works with others: shares, listens, and resolves disagreement constructively.',
    weight: 1,
    levels: [
      'No mention of working with others, or blames others.',
      'Mentions a team but not their own part in working together.',
      'Describes working with colleagues and their own part in it.',
      'Describes listening to colleagues, resolving a disagreement constructively, and a shared outcome.',
      'Builds agreement across people or teams, helps others succeed, and leaves a lasting improvement to how the team works.',
    ],
  },
  {
    key: 'ownership',
    name: 'Ownership and motivation',
    description: 'Takes responsibility for outcomes and shows genuine interest in the role.',
    weight: 1,
    levels: [
      'No example of taking responsibility; no interest in the role shown.',
      'Vague about their own responsibility or goals.',
      'Describes their own responsibility for a task and some goals for the role.',
      'Takes responsibility for an outcome end to end, with concrete goals for the role.',
      'Drives outcomes beyond their remit, learns from mistakes, and sets specific, ambitious goals for the role.',
    ],
  },
];

/**
 * Asked when a position has no questions of its own (PRODUCT.md §7), with fixed ids. Their
 * competencies are those of the default rubric; against another rubric, `defaultQuestionsFor`
 * keeps the keys it has (none left: the question is about any competency). They are the
 * platform's words, not the position's, so an interview in German asks them in German.
 */
const DEFAULT_QUESTIONS: Question[] = [
  { id: 'q_defaultQuestion1', text: 'Tell us about yourself and what draws you to this role.', competencies: ['ownership', 'communication'], maxFollowUps: 1 },
  { id: 'q_defaultQuestion2', text: 'Describe a recent project you are proud of and your part in it.', competencies: ['problem_solving', 'ownership'], maxFollowUps: 1 },
  { id: 'q_defaultQuestion3', text: 'Tell us about a time you disagreed with a colleague. How did you resolve it?', competencies: ['collaboration', 'communication'], maxFollowUps: 1 },
  { id: 'q_defaultQuestion4', text: 'What would you want to learn or achieve in your first six months here?', competencies: ['ownership'], maxFollowUps: 1 },
];

/** The default questions' texts in each other interview language, in the same order. */
const DEFAULT_QUESTION_TEXTS: Readonly<Record<Exclude<InterviewLanguage, 'en'>, readonly string[]>> = {
  de: [
    'Erzählen Sie uns von sich und davon, was Sie an dieser Rolle reizt.',
    'Beschreiben Sie ein aktuelles Projekt, auf das Sie stolz sind, und Ihren Anteil daran.',
    'Erzählen Sie von einer Situation, in der Sie anderer Meinung waren als jemand aus Ihrem Team. Wie haben Sie das gelöst?',
    'Was möchten Sie in Ihren ersten sechs Monaten hier lernen oder erreichen?',
  ],
};

export const DEFAULT_INTERVIEW_QUESTIONS = DEFAULT_QUESTIONS.map((q) => q.text);

/** The default questions in `language`, their competencies cut to the keys `rubric` has. */
export function defaultQuestionsFor(rubric: { competencies: { key: string }[] }, language: InterviewLanguage = 'en'): Question[] {
  const keys = new Set(rubric.competencies.map((c) => c.key));
  const texts = language === 'en' ? null : DEFAULT_QUESTION_TEXTS[language];
  return DEFAULT_QUESTIONS.map((q, i) => ({ ...q, text: texts?.[i] ?? q.text, competencies: q.competencies.filter((k) => keys.has(k)) }));
}
