import type { InviteView } from '@hireloop/recruiting/invites/invites.router';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f6f7f9; color: #1d2230; overflow-wrap: anywhere; }
  main { max-width: 44rem; margin: 3rem auto; background: #fff; padding: 2rem 2.5rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; } .muted { color: #5b6275; }
  label { display: block; font-weight: 600; margin: 1.5rem 0 .5rem; }
  textarea { width: 100%; min-height: 7rem; font: inherit; padding: .6rem; border: 1px solid #c9cedb; border-radius: 8px; box-sizing: border-box; }
  button { font: inherit; font-weight: 600; background: #3352e0; color: #fff; border: 0; border-radius: 8px; padding: .7rem 1.4rem; margin-top: 1.5rem; cursor: pointer; }
  .error { background: #fdecec; color: #8a1c1c; padding: .75rem 1rem; border-radius: 8px; }
  .notice { border: 1px solid #c9cedb; border-radius: 8px; padding: .25rem 1.25rem; margin: 1.5rem 0; }
  .notice h2 { font-size: 1.15rem; }
  .choices form { display: inline-block; margin-right: 1rem; }
  button.secondary { background: #fff; color: #3352e0; border: 1px solid #3352e0; }
  @media (max-width: 32rem) { main { margin: 0; padding: 1.25rem; border-radius: 0; } .choices form { display: block; } }
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function header(view: InviteView): string {
  return `<h1>${escape(view.title)}</h1><p class="muted">${escape(view.positionTitle)} · about ${view.duration} minutes</p>`;
}

/** The AI notice (PRODUCT.md §10) with the organization's name as the contact. */
function notice(view: InviteView, organization: string): string {
  const paragraphs = view.notice.paragraphs.map((p) => `<p>${escape(p).replaceAll('{organization}', () => `<strong>${escape(organization)}</strong>`)}</p>`);
  return `<section class="notice" id="ai-notice" aria-labelledby="ai-notice-title"><h2 id="ai-notice-title">Before you start: how AI is used</h2>
${paragraphs.join('\n')}<p class="muted">Notice version ${escape(view.notice.version)}</p></section>`;
}

/** "I agree, start": the form carries the consent and the version of the notice shown. */
function agreeForm(view: InviteView, action: string, label: string): string {
  return `<form method="post" action="${action}"><input type="hidden" name="notice" value="${escape(view.notice.version)}">
<button type="submit" id="start" name="consent" value="agree">${label}</button></form>`;
}

const alert = (problem?: { message: string }) => (problem ? `<p class="error" role="alert">${escape(problem.message)}</p>` : '');

/**
 * The candidate's page for each state of the interview (PRODUCT.md §7's status machine).
 * `organization` is the name of the organization that invited the candidate.
 */
export function invitePage(view: InviteView, token: string, organization: string, problem?: { message: string; answers: string[] }): string {
  const action = (step: string) => `/i/${encodeURIComponent(token)}/${step}`;
  switch (view.status) {
    case 'scheduled':
      return page(view.title, `${header(view)}
${alert(problem)}
<p>Hello ${escape(view.candidateName)}, thank you for your interest.</p>
<p>This interview has ${view.questions.length} questions. Answer each in your own words; you can take your time.
Your answers are submitted together at the end. The invite is valid until ${escape(new Date(view.expiresAt).toUTCString())}.</p>
${notice(view, organization)}
<div class="choices">${agreeForm(view, action('start'), 'I agree, start')}
<form method="post" action="${action('decline')}"><button type="submit" id="decline" class="secondary">I’d prefer not to be interviewed by an AI</button></form></div>`);
    case 'in_progress':
      if (!view.consentGiven) {
        return page(view.title, `${header(view)}
${alert(problem)}
${notice(view, organization)}
${agreeForm(view, action('start'), 'I agree, continue')}`);
      }
      return page(view.title, `${header(view)}
${alert(problem)}
<form method="post" action="${action('submit')}">
${view.questions
  .map((q, i) => `<label for="answer-${i}">${i + 1}. ${escape(q)}</label><textarea id="answer-${i}" name="answer" required maxlength="10000">${escape(problem?.answers[i] ?? '')}</textarea>`)
  .join('\n')}
<button type="submit" id="submit">Submit my answers</button></form>`);
    case 'completed':
      return page('Thank you', `${header(view)}<h2>Thank you, ${escape(view.candidateName)}!</h2><p>Your answers have been submitted. The hiring team will be in touch.</p>`);
    case 'cancelled':
      return page('Interview cancelled', `${header(view)}<h2>This interview has been cancelled.</h2><p>The hiring team cancelled it; there is nothing more to do here. If you think this is a mistake, contact the person who invited you.</p>`);
    case 'expired':
      return page('Invite expired', `${header(view)}<h2>This invite has expired.</h2><p>It was valid until ${escape(new Date(view.expiresAt).toUTCString())}. Ask the person who invited you for a new link.</p>`);
    case 'declined':
      return page('A person will interview you', `${header(view)}<h2 id="declined">You chose not to be interviewed by an AI.</h2><p>That is fine, and it does not count against you. <strong>${escape(organization)}</strong> has been told and will offer you an alternative with a person. There is nothing more to do here.</p>`);
  }
}

export function notFoundPage(): string {
  return page('Invite not found', '<h1>This invite link is not valid.</h1><p class="muted">Check that you copied the whole link from your invitation.</p>');
}

export function unavailablePage(): string {
  return page('Please try again', '<h1>Something went wrong on our side.</h1><p class="muted">Your progress is saved. Please try again in a minute.</p>');
}
