import { MAX_ANSWER_CHARS, type InterviewLanguage } from '@hireloop/contracts';
import type { InviteView } from '@hireloop/recruiting/invites/invites.router';
import { textsFor, type InviteTexts } from './invite-texts.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The invite page's script (progressive enhancement; every page works without it) and stylesheet. */
export const INVITE_SCRIPT_PATH = '/i/assets/interview.js';
export const INVITE_STYLE_PATH = '/i/assets/interview.css';


function page(t: InviteTexts, title: string, body: string, script = false): string {
  return `<!doctype html><html lang="${t.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title><link rel="stylesheet" href="${INVITE_STYLE_PATH}">${script ? `<script src="${INVITE_SCRIPT_PATH}" defer></script>` : ''}</head><body><main id="main">${body}</main></body></html>`;
}

function header(t: InviteTexts, view: InviteView): string {
  return `<h1>${escape(view.title)}</h1><p class="muted">${escape(view.positionTitle)} · ${escape(t.aboutMinutes(Math.round(view.budgetMinutes)))}</p>`;
}

/** The AI notice (PRODUCT.md §10) with the organization's name as the contact. */
function notice(t: InviteTexts, view: InviteView, organization: string): string {
  const paragraphs = view.notice.paragraphs.map((p) => `<p>${escape(p).replaceAll('{organization}', () => `<strong>${escape(organization)}</strong>`)}</p>`);
  return `<section class="notice" id="ai-notice" aria-labelledby="ai-notice-title"><h2 id="ai-notice-title">${escape(t.noticeTitle)}</h2>
${paragraphs.join('\n')}<p class="muted">${escape(t.noticeVersion(view.notice.version))}</p></section>`;
}

/** "I agree, start": the form carries the consent and the version of the notice shown. */
function agreeForm(view: InviteView, action: string, label: string): string {
  return `<form method="post" action="${action}"><input type="hidden" name="notice" value="${escape(view.notice.version)}">
<button type="submit" id="start" name="consent" value="agree">${escape(label)}</button></form>`;
}

/** Something the candidate must know about their last submission; `kept` is their text, put back in the form. */
export interface PageProblem {
  message: string;
  kept?: string;
  /** The answer itself is what is wrong (empty, too long): the field says so to assistive technology. */
  invalid?: boolean;
}

const alert = (problem?: PageProblem) => (problem ? `<p class="error" role="alert" id="problem">${escape(problem.message)}</p>` : '');

/** The time left, as a sentence; the script keeps it current and announces it now and then. */
export function timeLeftText(t: InviteTexts, remainingSeconds: number): string {
  if (remainingSeconds <= 0) return t.timeUp;
  if (remainingSeconds < 60) return t.lastMinute;
  return t.timeLeft(Math.round(remainingSeconds / 60));
}

const SENTINEL = 1234567;

/**
 * The texts the script shows, in the page's language, as the form's `data-text-*` attributes;
 * `{n}` is a number it fills in. The same for every page of a language, so made once for each.
 */
const scriptTextAttributes = new Map<InviteTexts, string>();

function scriptTextsOf(t: InviteTexts): string {
  const made = scriptTextAttributes.get(t);
  if (made !== undefined) return made;
  const sentinel = new Intl.NumberFormat(t.lang === 'de' ? 'de-DE' : 'en-GB').format(SENTINEL);
  const texts = {
    preparing: t.preparing,
    sendFailed: t.sendFailed,
    timeLeft: t.timeLeft(SENTINEL).replace(String(SENTINEL), '{n}'),
    timeLeftOne: t.timeLeft(1),
    lastMinute: t.lastMinute,
    timeUp: t.timeUp,
    characters: t.characters(SENTINEL, MAX_ANSWER_CHARS).replace(sentinel, '{n}'),
    empty: t.answerEmpty,
    tooLong: t.answerTooLong(SENTINEL, MAX_ANSWER_CHARS).replace(sentinel, '{n}'),
  };
  const attributes = Object.entries(texts).map(([k, v]) => `data-text-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escape(v)}"`).join(' ');
  scriptTextAttributes.set(t, attributes);
  return attributes;
}

/** The turn the candidate answers now: one question, one answer field (PRODUCT.md §12). */
function turnPage(t: InviteTexts, view: InviteView, turn: NonNullable<InviteView['turn']>, action: string, problem?: PageProblem): string {
  const remaining = view.remainingSeconds ?? 0;
  const kind = turn.kind === 'follow_up' ? `<span class="kind">${escape(t.followUpLabel)}</span>` : '';
  const data = scriptTextsOf(t);
  const finishBy = remaining <= 0 && view.finishBy ? ` ${escape(t.finishBy(view.finishBy))}` : '';
  return `${header(t, view)}
<div class="status-line"><p id="progress">${escape(t.progress(turn.questionNumber, view.questionCount))}</p>
<p id="time-left" class="muted" data-remaining="${remaining}">${escape(timeLeftText(t, remaining))}${finishBy}</p></div>
<div id="time-announcer" class="visually-hidden" role="status" aria-live="polite" aria-atomic="true"></div>
${alert(problem)}
<form method="post" action="${action}" id="turn-form" data-signals="${view.collectSignals ? 'on' : 'off'}" ${data}>
<input type="hidden" name="turn" value="${escape(turn.id)}">
<h2 class="turn" id="turn-text" tabindex="-1" autofocus>${kind}${escape(turn.text)}</h2>
<label for="answer">${escape(t.answerLabel)}</label>
<p id="answer-hint" class="muted">${escape(t.answerHint)}</p>
<textarea id="answer" name="answer" required rows="8" ${problem?.invalid ? 'aria-invalid="true" aria-describedby="problem turn-text answer-hint"' : 'aria-describedby="turn-text answer-hint"'}>${escape(problem?.kept ?? '')}</textarea>
<p id="answer-count" class="muted"></p>
<input type="hidden" name="signals" value="">
<button type="submit" id="send">${escape(t.send)}</button>
<p id="preparing" class="preparing" role="status" aria-live="polite"></p>
</form>`;
}

/** Whether the page for `view` names the organization: the AI notice (its contact) and the declined page do. */
export function showsOrganization(view: InviteView): boolean {
  return view.status === 'scheduled' || view.status === 'declined' || (view.status === 'in_progress' && !view.consentGiven);
}

/**
 * The candidate's page for each state of the interview (PRODUCT.md §7's status machine), in the
 * interview's language. `organization` is the name of the organization that invited the candidate.
 */
export function invitePage(view: InviteView, token: string, organization: string, problem?: PageProblem): string {
  const t = textsFor(view.language);
  const action = (step: string) => `/i/${encodeURIComponent(token)}/${step}`;
  switch (view.status) {
    case 'scheduled':
      return page(t, view.title, `${header(t, view)}
${alert(problem)}
<p>${escape(t.greeting(view.candidateName))}</p>
<p>${escape(t.howItWorks(view.questionCount, t.aboutMinutes(Math.round(view.budgetMinutes))))} ${escape(t.validUntil(view.expiresAt))}</p>
${notice(t, view, organization)}
<div class="choices">${agreeForm(view, action('start'), t.agreeStart)}
<form method="post" action="${action('decline')}"><button type="submit" id="decline" class="secondary">${escape(t.decline)}</button></form></div>`);
    case 'in_progress':
      if (!view.consentGiven) {
        return page(t, view.title, `${header(t, view)}
${alert(problem)}
${notice(t, view, organization)}
${agreeForm(view, action('start'), t.agreeContinue)}`);
      }
      if (view.turn) return page(t, view.title, turnPage(t, view, view.turn, action('answer'), problem), true);
      // Between turns (the next one is being decided by another request): look again shortly.
      return page(t, view.title, `${header(t, view)}<p role="status">${escape(t.preparing)}</p><p><a href="/i/${encodeURIComponent(token)}">${escape(t.showNext)}</a></p>`);
    case 'completed':
      return page(t, t.thanksTitle, `${header(t, view)}<h2 id="done" tabindex="-1">${escape(t.thanks(view.candidateName))}</h2><p>${escape(t.thanksBody)}</p>`);
    case 'cancelled':
      return page(t, t.cancelledTitle, `${header(t, view)}<h2>${escape(t.cancelled)}</h2><p>${escape(t.cancelledBody)}</p>`);
    case 'expired':
      return page(t, t.expiredTitle, `${header(t, view)}<h2>${escape(t.expired)}</h2><p>${escape(t.expiredBody(view.finishBy ?? view.expiresAt))}</p>`);
    case 'declined':
      return page(t, t.declinedTitle, `${header(t, view)}<h2 id="declined">${escape(t.declined)}</h2><p>${escape(t.declinedBody(organization))}</p>`);
  }
}

/** A page with no interview on it, in `language` (the interview's when known, else the browser's). */
function messagePage(language: InterviewLanguage, which: 'notFound' | 'unavailable' | 'formUnreadable'): string {
  const t = textsFor(language);
  const { title, heading, hint } = t[which];
  return page(t, title, `<h1>${escape(heading)}</h1><p class="muted">${escape(hint)}</p>`);
}

export const notFoundPage = (language: InterviewLanguage = 'en') => messagePage(language, 'notFound');
export const unavailablePage = (language: InterviewLanguage = 'en') => messagePage(language, 'unavailable');
/** A form the page could not read (a body in another charset, too large): go back and send it again. */
export const formUnreadablePage = (language: InterviewLanguage = 'en') => messagePage(language, 'formUnreadable');
