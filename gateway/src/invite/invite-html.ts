import { MAX_ANSWER_CHARS } from '@hireloop/contracts';
import type { InviteView } from '@hireloop/recruiting/invites/invites.router';
import { textsFor, type InviteTexts } from './invite-texts.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The invite page's script (progressive enhancement; every page works without it). */
export const INVITE_SCRIPT_PATH = '/i/assets/interview.js';

const STYLE = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f6f7f9; color: #1d2230; overflow-wrap: anywhere; }
  main { max-width: 44rem; margin: 3rem auto; background: #fff; padding: 2rem 2.5rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; } .muted { color: #5b6275; }
  h2 { font-size: 1.25rem; }
  label { display: block; font-weight: 600; margin: 1.5rem 0 .25rem; }
  textarea { width: 100%; min-height: 10rem; font: inherit; padding: .6rem; border: 1px solid #767d91; border-radius: 8px; box-sizing: border-box; }
  textarea:focus, button:focus, h2:focus { outline: 3px solid #1d3bb8; outline-offset: 2px; }
  button { font: inherit; font-weight: 600; background: #3352e0; color: #fff; border: 0; border-radius: 8px; padding: .7rem 1.4rem; margin-top: 1rem; cursor: pointer; }
  button[aria-disabled="true"] { background: #5b6275; cursor: progress; }
  .error { background: #fdecec; color: #8a1c1c; padding: .75rem 1rem; border-radius: 8px; }
  .notice { border: 1px solid #c9cedb; border-radius: 8px; padding: .25rem 1.25rem; margin: 1.5rem 0; }
  .notice h2 { font-size: 1.15rem; }
  .choices form { display: inline-block; margin-right: 1rem; }
  button.secondary { background: #fff; color: #2a44c0; border: 1px solid #2a44c0; }
  .status-line { display: flex; flex-wrap: wrap; justify-content: space-between; gap: .5rem 1.5rem; margin-top: 1.25rem; }
  .status-line p { margin: 0; }
  .kind { display: block; font-size: .9rem; font-weight: 600; color: #5b6275; text-transform: uppercase; letter-spacing: .04em; }
  .turn { margin: 1.5rem 0 0; }
  .preparing:not(:empty) { margin-top: 1rem; padding: .75rem 1rem; background: #eef1fd; border-radius: 8px; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
  @media (max-width: 32rem) { main { margin: 0; padding: 1.25rem; border-radius: 0; } .choices form { display: block; } }
`;

function page(t: InviteTexts, title: string, body: string, script = false): string {
  return `<!doctype html><html lang="${t.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style>${script ? `<script src="${INVITE_SCRIPT_PATH}" defer></script>` : ''}</head><body><main id="main">${body}</main></body></html>`;
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
}

const alert = (problem?: PageProblem) => (problem ? `<p class="error" role="alert" id="problem">${escape(problem.message)}</p>` : '');

/** The time left, as a sentence; the script keeps it current and announces it now and then. */
export function timeLeftText(t: InviteTexts, remainingSeconds: number): string {
  if (remainingSeconds <= 0) return t.timeUp;
  if (remainingSeconds < 60) return t.lastMinute;
  return t.timeLeft(Math.round(remainingSeconds / 60));
}

const SENTINEL = 1234567;

/** The turn the candidate answers now: one question, one answer field (PRODUCT.md §12). */
function turnPage(t: InviteTexts, view: InviteView, turn: NonNullable<InviteView['turn']>, action: string, problem?: PageProblem): string {
  const remaining = view.remainingSeconds ?? 0;
  const kind = turn.kind === 'follow_up' ? `<span class="kind">${escape(t.followUpLabel)}</span>` : '';
  // Texts the script shows, in the page's language; `{n}` is a number it fills in.
  const scriptTexts = {
    preparing: t.preparing,
    sendFailed: t.sendFailed,
    timeLeft: t.timeLeft(SENTINEL).replace(String(SENTINEL), '{n}'),
    timeLeftOne: t.timeLeft(1),
    lastMinute: t.lastMinute,
    timeUp: t.timeUp,
    characters: t.characters(SENTINEL, MAX_ANSWER_CHARS).replace(SENTINEL.toLocaleString(t.lang === 'de' ? 'de-DE' : 'en-GB'), '{n}'),
    empty: t.answerEmpty,
    tooLong: t.answerTooLong(SENTINEL, MAX_ANSWER_CHARS).replace(SENTINEL.toLocaleString(t.lang === 'de' ? 'de-DE' : 'en-GB'), '{n}'),
  };
  const data = Object.entries(scriptTexts).map(([k, v]) => `data-text-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escape(v)}"`).join(' ');
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
<textarea id="answer" name="answer" required rows="8" aria-describedby="turn-text answer-hint">${escape(problem?.kept ?? '')}</textarea>
<p id="answer-count" class="muted"></p>
<input type="hidden" name="signals" value="">
<button type="submit" id="send">${escape(t.send)}</button>
<p id="preparing" class="preparing" role="status" aria-live="polite"></p>
</form>`;
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
      return page(t, t.expiredTitle, `${header(t, view)}<h2>${escape(t.expired)}</h2><p>${escape(t.expiredBody(view.expiresAt))}</p>`);
    case 'declined':
      return page(t, t.declinedTitle, `${header(t, view)}<h2 id="declined">${escape(t.declined)}</h2><p>${escape(t.declinedBody(organization))}</p>`);
  }
}

export function notFoundPage(): string {
  return page(textsFor('en'), 'Invite not found', '<h1>This invite link is not valid.</h1><p class="muted">Check that you copied the whole link from your invitation.</p>');
}

export function unavailablePage(): string {
  return page(textsFor('en'), 'Please try again', '<h1>Something went wrong on our side.</h1><p class="muted">Your progress is saved. Please try again in a minute.</p>');
}
