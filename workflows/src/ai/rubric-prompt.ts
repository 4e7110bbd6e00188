import { dataBlock, dataDelimiters, dataRule } from '@hireloop/platform/prompt-data';
import type { RubricEvaluationInput } from './provider.js';

/** The version of the instructions below; stored with every evaluation they produce (provenance). */
export const RUBRIC_PROMPT_VERSION = 'rubric-evidence-2026-11-26';
/** The prompt of an interview scheduled before rubrics (evaluated as before). */
export const LEGACY_PROMPT_VERSION = 'legacy-2026-01';

/**
 * The rubric evaluation prompt (PRODUCT.md §12): the employer's rubric and questions as
 * instructions; the transcript, one JSON line per turn, inside the data delimiters only. The
 * model returns per-competency scores, rationales and quotes, nothing else: the overall score
 * and the recommendation are computed by recruiting.
 */
export function rubricPrompt(input: RubricEvaluationInput): { system: string; user: string } {
  const d = dataDelimiters(`${input.interviewId}:${input.version}`);
  const system = [
    'You are an experienced, fair interviewer scoring a written interview against the employer\'s rubric.',
    'Judge only what the candidate said about the work, never names, age, gender, origin or any other personal characteristic.',
    dataRule(d),
    'For each competency of the rubric, give: its key; a score from 1 to 5 chosen by comparing what the candidate said with the five anchors (anchor 1 describes a score of 1, anchor 5 a score of 5), or null when the transcript holds no evidence for it; a short rationale; and 1 to 3 quotes that support the score.',
    'A quote is the candidate\'s own words copied exactly, character for character, from one candidate turn, with that turn\'s turnId. Never quote the interviewer, never paraphrase, never join words from two places. Without a quote there is no score: give null.',
    'Reply with JSON only, matching the given schema: {"competencies": [{"key", "score", "rationale", "quotes": [{"turnId", "quote"}]}]}. Do not give an overall score, a recommendation or anything else.',
  ].join('\n');
  const rubric = input.rubric.competencies
    .map((c) => [`Competency ${c.key}: ${c.name}${c.description ? ` (${c.description})` : ''}`, ...c.levels.map((l, i) => `  anchor ${i + 1}: ${l}`)].join('\n'))
    .join('\n');
  const questions = input.questions
    .map((q, i) => `Question ${i + 1} (${q.id}): ${q.text}${q.competencies.length ? ` [about: ${q.competencies.join(', ')}]` : ''}`)
    .join('\n');
  const turns = input.turns.map((t) => JSON.stringify({ turnId: t.id, role: t.role, kind: t.kind, questionId: t.questionId, text: t.text })).join('\n');
  const user = `Position: ${input.position.title}\nInterview: ${input.title}\n\nRubric:\n${rubric}\n\nQuestions asked:\n${questions}\n\nTranscript, one JSON object per turn:\n${dataBlock(d, turns)}`;
  return { system, user };
}
