import type { InviteView } from '@hireloop/recruiting/invites/invites.router';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; background: #f6f7f9; color: #1d2230; }
  main { max-width: 44rem; margin: 3rem auto; background: #fff; padding: 2rem 2.5rem; border-radius: 12px; box-shadow: 0 1px 4px rgba(0,0,0,.08); }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; } .muted { color: #5b6275; }
  label { display: block; font-weight: 600; margin: 1.5rem 0 .5rem; }
  textarea { width: 100%; min-height: 7rem; font: inherit; padding: .6rem; border: 1px solid #c9cedb; border-radius: 8px; box-sizing: border-box; }
  button { font: inherit; font-weight: 600; background: #3352e0; color: #fff; border: 0; border-radius: 8px; padding: .7rem 1.4rem; margin-top: 1.5rem; cursor: pointer; }
  .error { background: #fdecec; color: #8a1c1c; padding: .75rem 1rem; border-radius: 8px; }
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

function header(view: InviteView): string {
  return `<h1>${escape(view.title)}</h1><p class="muted">${escape(view.positionTitle)} · about ${view.duration} minutes</p>`;
}

/** The candidate's page for each state of the interview (PRODUCT.md §7's status machine). */
export function invitePage(view: InviteView, token: string, problem?: { message: string; answers: string[] }): string {
  const action = (step: string) => `/i/${encodeURIComponent(token)}/${step}`;
  switch (view.status) {
    case 'scheduled':
      return page(view.title, `${header(view)}
<p>Hello ${escape(view.candidateName)}, thank you for your interest.</p>
<p>This interview has ${view.questions.length} questions. Answer each in your own words; you can take your time.
Your answers are submitted together at the end. The invite is valid until ${escape(new Date(view.expiresAt).toUTCString())}.</p>
<form method="post" action="${action('start')}"><button type="submit" id="start">Start the interview</button></form>`);
    case 'in_progress':
      return page(view.title, `${header(view)}
${problem ? `<p class="error" role="alert">${escape(problem.message)}</p>` : ''}
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
  }
}

export function notFoundPage(): string {
  return page('Invite not found', '<h1>This invite link is not valid.</h1><p class="muted">Check that you copied the whole link from your invitation.</p>');
}

export function unavailablePage(): string {
  return page('Please try again', '<h1>Something went wrong on our side.</h1><p class="muted">Your progress is saved. Please try again in a minute.</p>');
}
