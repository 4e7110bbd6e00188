import type { InterviewLanguage } from '@hireloop/contracts';
import { dataBlock, dataDelimiters, dataRule } from '@hireloop/platform/prompt-data';

/** The version of the follow-up instructions; change it whenever the prompt changes. */
export const FOLLOW_UP_PROMPT_VERSION = 'follow-up-1';

/** What a follow-up is generated from (PRODUCT.md §12 "Turns"): the question, its anchors, the answers so far. */
export interface FollowUpRequest {
  /** Seeds the data delimiters: the id of the answer turn the follow-up would come after. */
  seed: string;
  language: InterviewLanguage;
  question: string;
  /** The question's competencies (all of the rubric's when the question names none) with their anchors. */
  competencies: { name: string; description?: string | null | undefined; levels: readonly string[] }[];
  /** This question's turns so far, in order: the question, follow-ups and the candidate's answers. */
  exchange: { role: 'interviewer' | 'candidate'; text: string }[];
  /** Which follow-up this would be (1 for the first) and how many the question allows. */
  followUpNumber: number;
  maxFollowUps: number;
}

const LANGUAGE_NAMES: Record<InterviewLanguage, string> = { en: 'English', de: 'German' };

/** At most this many characters make a follow-up "one short question". */
export const MAX_FOLLOW_UP_CHARS = 300;

/**
 * The instructions and the data of one follow-up decision. Every turn of the exchange sits in
 * the delimited data block, the interviewer's own included, so nothing the candidate wrote can
 * pass for an instruction.
 */
export function followUpPrompt(request: FollowUpRequest): { system: string; user: string } {
  const d = dataDelimiters(request.seed);
  const system = [
    'You are a fair, friendly interviewer holding a written job interview. After each answer you decide whether to ask one follow-up question.',
    'Ask a follow-up only when the answers so far are thin: vague, very short, or missing the evidence the competencies\' anchors describe (a concrete situation, the candidate\'s own actions and reasoning, a result). When they already give that evidence, ask nothing.',
    `A follow-up is one short question: a single sentence of at most 200 characters ending with a question mark, written in ${LANGUAGE_NAMES[request.language]}. It builds on what the candidate wrote and on the competencies below, and asks for a concrete example, their own part, their reasoning, or the result.`,
    'Never ask about, or hint at, age or date of birth, family, pregnancy or children, marital status, health or disability, religion, national or ethnic origin, citizenship or work authorisation, sexual orientation, gender identity, union membership, political opinion, or criminal record.',
    dataRule(d),
    'Reply with JSON only: {"followUp": "<the question>"} to ask one, or {"followUp": null} to move on.',
  ].join('\n');
  const anchors = request.competencies.map((c) =>
    [`- ${c.name}${c.description ? `: ${c.description}` : ''}`, ...c.levels.map((level, i) => `  score ${i + 1}: ${level}`)].join('\n'),
  );
  const user = [
    `Scripted question: ${request.question}`,
    'Competencies this question is about, with what each score from 1 to 5 looks like:',
    ...anchors,
    `This would be follow-up ${request.followUpNumber} of at most ${request.maxFollowUps} for this question.`,
    'The exchange on this question so far, one JSON object per turn:',
    dataBlock(d, request.exchange.map((t) => JSON.stringify(t)).join('\n')),
  ].join('\n');
  return { system, user };
}
