/**
 * The AI notice the invite page shows before the questions (PRODUCT.md §10). The candidate's
 * consent records this version: change the version whenever the text changes, so each recorded
 * consent names the words the candidate read. `{organization}` is the organization that invited
 * the candidate (its name is filled in by the page), `{retentionDays}` RETENTION_ANSWERS_DAYS.
 */
export const AI_NOTICE_VERSION = 'ai-notice-2026-11';

export const AI_NOTICE_PARAGRAPHS: readonly string[] = [
  'This interview is evaluated with the help of artificial intelligence (AI).',
  'What is evaluated: only your written answers to the questions of this position. An AI model scores them against the skills (competencies) the role needs and writes a short summary with strengths and concerns. Nothing else about you is evaluated: not your voice, face, or how fast you type.',
  'Who decides: a person at {organization} reviews the evaluation and makes the decision. The AI only gives advice; it never rejects or advances you by itself.',
  'How long your answers are kept: {retentionDays} days, then they and their evaluation are deleted. You can ask {organization} to delete them sooner.',
  'Contact: for questions about this interview or your data, or to ask for a different way to be interviewed, contact {organization}, the organization that invited you.',
  'You can agree and start, or decline. If you decline, you will not be interviewed by an AI and {organization} will offer you an alternative with a person.',
];

/** The notice with the retention period filled in; `{organization}` stays for the page. */
export function aiNotice(retentionDays: number): { version: string; paragraphs: string[] } {
  return { version: AI_NOTICE_VERSION, paragraphs: AI_NOTICE_PARAGRAPHS.map((p) => p.replaceAll('{retentionDays}', String(retentionDays))) };
}
