import type { InterviewLanguage } from '@hireloop/contracts';

/**
 * Every fixed text of the invite page, in each interview language (PRODUCT.md §12 "Language").
 * The AI notice's paragraphs come from recruiting (they are versioned with the consent); these
 * are the page's own words. Functions take the values they show; the page escapes them.
 */
export interface InviteTexts {
  /** The HTML `lang`. */
  lang: string;
  minutes: (n: number) => string;
  aboutMinutes: (n: number) => string;
  greeting: (name: string) => string;
  howItWorks: (questions: number, minutes: string) => string;
  validUntil: (date: string) => string;
  noticeTitle: string;
  noticeVersion: (version: string) => string;
  agreeStart: string;
  agreeContinue: string;
  decline: string;
  consentMissing: string;
  progress: (n: number, of: number) => string;
  followUpLabel: string;
  answerLabel: string;
  answerHint: string;
  send: string;
  preparing: string;
  showNext: string;
  sendFailed: string;
  timeLeft: (minutes: number) => string;
  lastMinute: string;
  timeUp: string;
  finishBy: (date: string) => string;
  answerEmpty: string;
  answerTooLong: (length: number, max: number) => string;
  answerUnstorable: string;
  /** The pages without an interview to show: an unknown link, a failure of ours, a form we could not read. */
  notFound: { title: string; heading: string; hint: string };
  unavailable: { title: string; heading: string; hint: string };
  formUnreadable: { title: string; heading: string; hint: string };
  staleTurn: string;
  staleForm: string;
  keptText: string;
  thanksTitle: string;
  thanks: (name: string) => string;
  thanksBody: string;
  cancelledTitle: string;
  cancelled: string;
  cancelledBody: string;
  expiredTitle: string;
  expired: string;
  expiredBody: (date: string) => string;
  declinedTitle: string;
  declined: string;
  declinedBody: (organization: string) => string;
  characters: (n: number, max: number) => string;
}

/**
 * Dates as the candidate reads them, in UTC (the page cannot know the candidate's zone without
 * script). One formatter per language, made once: making one costs more than the rest of a page.
 */
const dateIn = (locale: string) => {
  const format = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' });
  return (iso: string) => format.format(new Date(iso));
};
const enDate = dateIn('en-GB');
const deDate = dateIn('de-DE');
/** Numbers with the language's grouping (10,000 / 10.000); a kept formatter, as for dates. */
const enNumber = new Intl.NumberFormat('en-GB');
const deNumber = new Intl.NumberFormat('de-DE');

const en: InviteTexts = {
  lang: 'en',
  minutes: (n) => (n === 1 ? '1 minute' : `${n} minutes`),
  aboutMinutes: (n) => `about ${n === 1 ? '1 minute' : `${n} minutes`}`,
  greeting: (name) => `Hello ${name}, thank you for your interest.`,
  howItWorks: (questions, minutes) =>
    `This interview has ${questions} ${questions === 1 ? 'question' : 'questions'}, and takes ${minutes}. You answer one question at a time, in your own words; after an answer the interviewer may ask a short follow-up. Your progress is saved after every answer: you can close this page and come back to it with the same link.`,
  validUntil: (date) => `The invite is valid until ${enDate(date)}.`,
  noticeTitle: 'Before you start: how AI is used',
  noticeVersion: (version) => `Notice version ${version}`,
  agreeStart: 'I agree, start',
  agreeContinue: 'I agree, continue',
  decline: 'I’d prefer not to be interviewed by an AI',
  consentMissing: 'To start, read the notice and choose “I agree, start”.',
  progress: (n, of) => `Question ${n} of ${of}`,
  followUpLabel: 'Follow-up question',
  answerLabel: 'Your answer',
  answerHint: 'Write as much as you need, up to 10 000 characters. Concrete examples help.',
  send: 'Send answer',
  preparing: 'Your answer is saved. The interviewer is reading it…',
  showNext: 'Show the next question',
  sendFailed: 'Your answer could not be sent. Check your connection, then send it again; your text is still here.',
  timeLeft: (minutes) => `About ${minutes === 1 ? '1 minute' : `${minutes} minutes`} left of the suggested time.`,
  lastMinute: 'Less than a minute left of the suggested time.',
  timeUp: 'The suggested time is up. Take the time you need to finish; no more follow-up questions will be asked.',
  finishBy: (date) => `Please finish by ${enDate(date)}.`,
  answerEmpty: 'Please write an answer before sending it.',
  answerTooLong: (length, max) => `Your answer is ${enNumber.format(length)} characters long; an answer can have at most ${enNumber.format(max)}. Please shorten it. Your text is kept below.`,
  notFound: { title: 'Invite not found', heading: 'This invite link is not valid.', hint: 'Check that you copied the whole link from your invitation.' },
  unavailable: { title: 'Please try again', heading: 'Something went wrong on our side.', hint: 'Your progress is saved. Please try again in a minute.' },
  formUnreadable: { title: 'The form could not be read', heading: 'The form could not be read.', hint: 'Go back to the interview and send it again.' },
  answerUnstorable: 'Your answer contained a character that cannot be stored (a null character). It was taken out of your text below: please check it and send it again.',
  staleTurn: 'This question was already answered, perhaps in another tab or window. Here is the current question. What you wrote is kept below, so you can use it again.',
  staleForm: 'The interview now asks one question at a time. Here is the current question. What you wrote for it is kept below.',
  keptText: 'What you wrote',
  thanksTitle: 'Thank you',
  thanks: (name) => `Thank you, ${name}!`,
  thanksBody: 'Your answers have been submitted. The hiring team will be in touch.',
  cancelledTitle: 'Interview cancelled',
  cancelled: 'This interview has been cancelled.',
  cancelledBody: 'The hiring team cancelled it; there is nothing more to do here. If you think this is a mistake, contact the person who invited you.',
  expiredTitle: 'Invite expired',
  expired: 'This invite has expired.',
  expiredBody: (date) => `It was valid until ${enDate(date)}. Ask the person who invited you for a new link.`,
  declinedTitle: 'A person will interview you',
  declined: 'You chose not to be interviewed by an AI.',
  declinedBody: (organization) => `That is fine, and it does not count against you. ${organization} has been told and will offer you an alternative with a person. There is nothing more to do here.`,
  characters: (n, max) => `${enNumber.format(n)} of ${enNumber.format(max)} characters`,
};

const de: InviteTexts = {
  lang: 'de',
  minutes: (n) => (n === 1 ? '1 Minute' : `${n} Minuten`),
  aboutMinutes: (n) => `etwa ${n === 1 ? '1 Minute' : `${n} Minuten`}`,
  greeting: (name) => `Hallo ${name}, vielen Dank für Ihr Interesse.`,
  howItWorks: (questions, minutes) =>
    `Dieses Interview hat ${questions} ${questions === 1 ? 'Frage' : 'Fragen'} und dauert ${minutes}. Sie beantworten eine Frage nach der anderen, in Ihren eigenen Worten; nach einer Antwort kann der Interviewer eine kurze Nachfrage stellen. Ihr Fortschritt wird nach jeder Antwort gespeichert: Sie können diese Seite schließen und später mit demselben Link weitermachen.`,
  validUntil: (date) => `Die Einladung ist gültig bis ${deDate(date)}.`,
  noticeTitle: 'Bevor Sie beginnen: wie KI eingesetzt wird',
  noticeVersion: (version) => `Version des Hinweises: ${version}`,
  agreeStart: 'Ich stimme zu und beginne',
  agreeContinue: 'Ich stimme zu und mache weiter',
  decline: 'Ich möchte nicht von einer KI interviewt werden',
  consentMissing: 'Um zu beginnen, lesen Sie den Hinweis und wählen Sie „Ich stimme zu und beginne“.',
  progress: (n, of) => `Frage ${n} von ${of}`,
  followUpLabel: 'Nachfrage',
  answerLabel: 'Ihre Antwort',
  answerHint: 'Schreiben Sie so viel Sie möchten, bis zu 10 000 Zeichen. Konkrete Beispiele helfen.',
  send: 'Antwort senden',
  preparing: 'Ihre Antwort ist gespeichert. Der Interviewer liest sie …',
  showNext: 'Nächste Frage anzeigen',
  sendFailed: 'Ihre Antwort konnte nicht gesendet werden. Prüfen Sie Ihre Verbindung und senden Sie sie erneut; Ihr Text ist noch da.',
  timeLeft: (minutes) => `Noch etwa ${minutes === 1 ? '1 Minute' : `${minutes} Minuten`} der vorgesehenen Zeit.`,
  lastMinute: 'Weniger als eine Minute der vorgesehenen Zeit ist übrig.',
  timeUp: 'Die vorgesehene Zeit ist um. Nehmen Sie sich die Zeit, die Sie zum Abschließen brauchen; es werden keine Nachfragen mehr gestellt.',
  finishBy: (date) => `Bitte schließen Sie bis ${deDate(date)} ab.`,
  answerEmpty: 'Bitte schreiben Sie eine Antwort, bevor Sie sie senden.',
  answerTooLong: (length, max) => `Ihre Antwort ist ${deNumber.format(length)} Zeichen lang; eine Antwort darf höchstens ${deNumber.format(max)} Zeichen haben. Bitte kürzen Sie sie. Ihr Text bleibt unten erhalten.`,
  notFound: { title: 'Einladung nicht gefunden', heading: 'Dieser Einladungslink ist nicht gültig.', hint: 'Prüfen Sie, ob Sie den ganzen Link aus Ihrer Einladung kopiert haben.' },
  unavailable: { title: 'Bitte versuchen Sie es erneut', heading: 'Bei uns ist etwas schiefgegangen.', hint: 'Ihr Fortschritt ist gespeichert. Bitte versuchen Sie es in einer Minute erneut.' },
  formUnreadable: { title: 'Das Formular konnte nicht gelesen werden', heading: 'Das Formular konnte nicht gelesen werden.', hint: 'Gehen Sie zurück zum Interview und senden Sie es erneut.' },
  answerUnstorable: 'Ihre Antwort enthielt ein Zeichen, das nicht gespeichert werden kann (ein Nullzeichen). Es wurde aus Ihrem Text unten entfernt: Bitte prüfen Sie ihn und senden Sie ihn erneut.',
  staleTurn: 'Diese Frage wurde bereits beantwortet, vielleicht in einem anderen Tab oder Fenster. Hier ist die aktuelle Frage. Was Sie geschrieben haben, steht unten, damit Sie es weiterverwenden können.',
  staleForm: 'Das Interview stellt jetzt eine Frage nach der anderen. Hier ist die aktuelle Frage. Was Sie dazu geschrieben haben, steht unten.',
  keptText: 'Was Sie geschrieben haben',
  thanksTitle: 'Vielen Dank',
  thanks: (name) => `Vielen Dank, ${name}!`,
  thanksBody: 'Ihre Antworten wurden übermittelt. Das Recruiting-Team meldet sich bei Ihnen.',
  cancelledTitle: 'Interview abgesagt',
  cancelled: 'Dieses Interview wurde abgesagt.',
  cancelledBody: 'Das Recruiting-Team hat es abgesagt; hier ist nichts weiter zu tun. Wenn Sie das für einen Fehler halten, wenden Sie sich an die Person, die Sie eingeladen hat.',
  expiredTitle: 'Einladung abgelaufen',
  expired: 'Diese Einladung ist abgelaufen.',
  expiredBody: (date) => `Sie war gültig bis ${deDate(date)}. Bitten Sie die Person, die Sie eingeladen hat, um einen neuen Link.`,
  declinedTitle: 'Eine Person wird Sie interviewen',
  declined: 'Sie haben sich gegen ein Interview durch eine KI entschieden.',
  declinedBody: (organization) => `Das ist in Ordnung und wird nicht gegen Sie gewertet. ${organization} wurde informiert und bietet Ihnen eine Alternative mit einer Person an. Hier ist nichts weiter zu tun.`,
  characters: (n, max) => `${deNumber.format(n)} von ${deNumber.format(max)} Zeichen`,
};

export const INVITE_TEXTS: Readonly<Record<InterviewLanguage, InviteTexts>> = { en, de };

/** The texts of a page that knows no interview yet (an unknown link): English. */
export const textsFor = (language: InterviewLanguage | undefined): InviteTexts => INVITE_TEXTS[language ?? 'en'];
