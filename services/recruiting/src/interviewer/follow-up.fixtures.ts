import type { FollowUpRequest } from './follow-up-prompt.js';

// Test data only (the follow-up's unit tests here, and its openai SDK tests in gateway/test):
// a follow-up request after one answer, with one competency and its anchors.

const competencies = [{ name: 'Problem solving', description: 'Breaks problems down.', levels: ['none', 'vague', 'reasonable', 'trade-offs', 'root cause and data'] }];

/** The request for a first follow-up after `answer` to a bug question; `overrides` replace fields. */
export function sampleFollowUpRequest(answer: string, overrides: Partial<FollowUpRequest> = {}): FollowUpRequest {
  return {
    seed: `turn_${answer.length}`,
    language: 'en',
    question: 'Tell us about the hardest bug you fixed.',
    competencies,
    exchange: [
      { role: 'interviewer', text: 'Tell us about the hardest bug you fixed.' },
      { role: 'candidate', text: answer },
    ],
    followUpNumber: 1,
    maxFollowUps: 1,
    ...overrides,
  };
}
