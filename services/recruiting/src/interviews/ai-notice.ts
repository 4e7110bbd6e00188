import type { InterviewLanguage } from '@hireloop/contracts';

/**
 * The AI notice the invite page shows before the questions (PRODUCT.md §10). The candidate's
 * consent records this version: change the version whenever the text changes, so each recorded
 * consent names the words the candidate read (in the interview's language, which the interview
 * records). `{organization}` is the organization that invited the candidate (its name is filled
 * in by the page), `{retentionDays}` RETENTION_ANSWERS_DAYS.
 *
 * Versions:
 * - `ai-notice-2026-11`: the first; it says that nothing but the answers is looked at.
 * - `ai-notice-2026-12`: the conversation; it says that follow-up questions are asked and that
 *   integrity signals are recorded (shown to reviewers, never scored). Only interviews that
 *   consented to a version mentioning the signals collect them (CLARIFICATIONS 2026-11-26).
 */
export const AI_NOTICE_VERSION = 'ai-notice-2026-12';

/** Versions whose text tells the candidate that integrity signals are recorded. */
const VERSIONS_MENTIONING_SIGNALS: ReadonlySet<string> = new Set([AI_NOTICE_VERSION]);

/** Whether an interview may record integrity signals: its consent named a notice that mentions them. */
export function collectsSignals(consentNoticeVersion: string | null): boolean {
  return consentNoticeVersion !== null && VERSIONS_MENTIONING_SIGNALS.has(consentNoticeVersion);
}

export const AI_NOTICE_PARAGRAPHS: Readonly<Record<InterviewLanguage, readonly string[]>> = {
  en: [
    'This interview is held and evaluated with the help of artificial intelligence (AI).',
    'How it works: you answer one question at a time, in writing. After an answer, the AI may ask a short follow-up question about it, for example for a concrete example. It never asks about your age, family, health, religion, origin or other personal characteristics.',
    'What is evaluated: only your written answers. An AI model scores them against the skills (competencies) the role needs and writes a short summary with strengths and concerns. Nothing else about you is evaluated: not your voice, face, or how fast you type.',
    'What else is recorded: if your browser runs JavaScript, the page notes when text is pasted into an answer (and how long it is), how often and how long you leave the page, and how long you spend typing each answer. These integrity signals are shown to the person who reviews your interview; they are never used in any score. Without JavaScript, none of this is recorded.',
    'Who decides: a person at {organization} reviews the evaluation and makes the decision. The AI only gives advice; it never rejects or advances you by itself.',
    'How long your answers are kept: {retentionDays} days, then they, the signals and their evaluation are deleted. You can ask {organization} to delete them sooner.',
    'Contact: for questions about this interview or your data, or to ask for a different way to be interviewed, contact {organization}, the organization that invited you.',
    'You can agree and start, or decline. If you decline, you will not be interviewed by an AI and {organization} will offer you an alternative with a person.',
  ],
  de: [
    'Dieses Interview wird mit Hilfe künstlicher Intelligenz (KI) geführt und ausgewertet.',
    'So läuft es ab: Sie beantworten schriftlich eine Frage nach der anderen. Nach einer Antwort kann die KI eine kurze Nachfrage dazu stellen, zum Beispiel nach einem konkreten Beispiel. Sie fragt nie nach Ihrem Alter, Ihrer Familie, Gesundheit, Religion, Herkunft oder anderen persönlichen Merkmalen.',
    'Was ausgewertet wird: nur Ihre schriftlichen Antworten. Ein KI-Modell bewertet sie anhand der Fähigkeiten (Kompetenzen), die die Stelle erfordert, und schreibt eine kurze Zusammenfassung mit Stärken und Bedenken. Nichts anderes über Sie wird ausgewertet: weder Ihre Stimme noch Ihr Gesicht noch Ihre Tippgeschwindigkeit.',
    'Was außerdem aufgezeichnet wird: Wenn Ihr Browser JavaScript ausführt, hält die Seite fest, wann Text in eine Antwort eingefügt wird (und wie lang er ist), wie oft und wie lange Sie die Seite verlassen und wie lange Sie an jeder Antwort schreiben. Diese Integritätssignale werden der Person gezeigt, die Ihr Interview prüft; sie fließen nie in eine Bewertung ein. Ohne JavaScript wird nichts davon aufgezeichnet.',
    'Wer entscheidet: Eine Person bei {organization} prüft die Auswertung und trifft die Entscheidung. Die KI gibt nur eine Empfehlung; sie lehnt Sie nie von sich aus ab und bringt Sie auch nicht von sich aus weiter.',
    'Wie lange Ihre Antworten aufbewahrt werden: {retentionDays} Tage, danach werden sie, die Signale und ihre Auswertung gelöscht. Sie können {organization} bitten, sie früher zu löschen.',
    'Kontakt: Bei Fragen zu diesem Interview oder zu Ihren Daten, oder wenn Sie auf andere Weise interviewt werden möchten, wenden Sie sich an {organization}, die Organisation, die Sie eingeladen hat.',
    'Sie können zustimmen und beginnen oder ablehnen. Wenn Sie ablehnen, werden Sie nicht von einer KI interviewt, und {organization} bietet Ihnen eine Alternative mit einer Person an.',
  ],
};

/** The notice in `language` with the retention period filled in; `{organization}` stays for the page. */
export function aiNotice(language: InterviewLanguage, retentionDays: number): { version: string; paragraphs: string[] } {
  return { version: AI_NOTICE_VERSION, paragraphs: AI_NOTICE_PARAGRAPHS[language].map((p) => p.replaceAll('{retentionDays}', String(retentionDays))) };
}
