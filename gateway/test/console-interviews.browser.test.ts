import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, eventually, newKey } from '@hireloop/devstack/testing';
import { checkView, consoleSession, logIn, newConsoleUser, openPage, openView, skipWithoutChromium, WIDTHS, waitForFocus } from './console-helpers.js';
import { newPosition, schedule, uniqueEmail } from './interview-helpers.js';

/**
 * Issue 10, journey 2 (and issue 11 item 2 in the console): a recruiter schedules an interview in
 * the console, the candidate takes it through the invite URL the console shows, the stack's
 * OpenAI-compatible server evaluates it, and the recruiter sees the scorecard and records a
 * decision as themself; cancelling with a reason and the status filter too; every Interviews view
 * at 1280 and 390 px with no horizontal overflow and no page error.
 */
describe('console: interviews (journey 2)', { skip: skipWithoutChromium }, () => {
  const s = consoleSession(['read', 'write']);
  let positionId: string;
  const TITLE = 'Platform Engineer';
  const CONSOLE_TITLE = 'Site Reliability Engineer';
  const ANSWERS = ['I keep the deploy pipeline boring and fast.', 'Measure first, then remove the slowest step.'];
  const FOLLOW_UP_ANSWER = 'For example, I split the test suite so that the slowest half runs in parallel.';

  before(async () => {
    // For the other tests here; journey 2 itself creates its position in the console.
    positionId = (await newPosition(s.key, { title: TITLE, interviewQuestions: ['How do you ship safely?', 'How do you make a build faster?'] })).id;
  });

  /**
   * The candidate's side: the invite page, the AI notice agreed to, then one turn at a time
   * (PRODUCT.md §12): each scripted question answered, and any follow-up the interviewer asks.
   */
  async function takeInterview(inviteUrl: string) {
    const candidate = await openPage(s.browser, WIDTHS.phone);
    const { page } = candidate;
    await page.goto(inviteUrl);
    await page.click('#start');
    let question = 0;
    for (let turn = 0; turn < 20; turn++) {
      await page.locator('#turn-text, #done').first().waitFor();
      if (await page.locator('#done').count()) break;
      const followUp = (await page.locator('#turn-text .kind').count()) > 0;
      await page.fill('#answer', followUp ? FOLLOW_UP_ANSWER : ANSWERS[question++]!);
      const answered = await page.locator('input[name="turn"]').inputValue();
      await page.click('#send');
      // The next turn (its own id), or the end.
      await page.waitForFunction((id) => document.getElementById('done') !== null || document.querySelector<HTMLInputElement>('input[name="turn"]')?.value !== id, answered);
    }
    await page.waitForSelector('text=Thank you');
    assert.equal(question, ANSWERS.length, 'every scripted question was asked');
    await candidate.close();
  }

  const inviteUrlOn = async (page: Page) => page.getByLabel('Invite URL').inputValue();

  it('create a position and schedule in the console, take it as the candidate, see the scorecard, record a decision', async () => {
    const recruiter = await openPage(s.browser, WIDTHS.desktop);
    const { page } = recruiter;
    await logIn(page, s.user, 'interviews');
    await page.getByRole('heading', { level: 1, name: 'Interviews' }).waitFor();
    await page.getByText('No interviews yet').waitFor();

    // Journey 2 starts with a position made in the console.
    await openView(page, 'positions/new', 'New position');
    await page.getByLabel('Title').fill(CONSOLE_TITLE);
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 1', { exact: true }).fill('How do you ship safely?');
    await page.getByRole('button', { name: 'Add a question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('How do you make a build faster?');
    await page.getByRole('button', { name: 'Create position' }).click();
    await page.getByRole('heading', { level: 1, name: CONSOLE_TITLE }).waitFor();
    await openView(page, 'interviews', 'Interviews');

    await page.getByRole('link', { name: 'Schedule an interview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Schedule an interview' }).waitFor();
    // The form refuses what the contract refuses before anything is sent.
    await page.getByRole('button', { name: 'Schedule interview' }).click();
    await page.locator('#root .error').filter({ hasText: /./ }).first().waitFor();
    // An empty choice says what to do, not what an id looks like.
    await page.getByText('Choose a position.', { exact: true }).waitFor();
    await page.getByText('Enter the candidate\'s e-mail, or find the candidate above.').waitFor();
    assert.equal(await page.getByText(/must be an id/).count(), 0, 'no id format on an empty choice');
    assert.equal(await page.getByLabel('Position').getAttribute('aria-invalid'), 'true');
    await page.getByLabel('Position').selectOption({ label: CONSOLE_TITLE });
    const email = uniqueEmail('journey2');
    await page.getByLabel('Candidate e-mail').fill(email);
    await page.getByLabel('Candidate name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Schedule interview' }).click();

    await page.getByRole('heading', { level: 1, name: `${CONSOLE_TITLE} interview` }).waitFor();
    const interviewId = new URL(page.url()).pathname.split('/').pop()!;
    assert.match(interviewId, /^int_/);
    const inviteUrl = await inviteUrlOn(page);
    const viaApi = (await call('GET', `/api/v1/interviews/${interviewId}`, { key: s.key })).body.data;
    assert.equal(inviteUrl, viaApi.inviteUrl, 'the console shows the interview\'s invite URL');
    assert.equal(viaApi.candidate.email, email);
    assert.match(await page.locator('.timeline').textContent() ?? '', /Scheduled/);
    assert.ok(await page.getByText('Expires').isVisible());
    assert.equal(recruiter.errors.length, 0, recruiter.errors.join('\n'));

    await takeInterview(inviteUrl);

    // The scorecard appears once the AI has evaluated the answers (the page polls).
    await page.getByRole('heading', { name: /^Your decision/ }).waitFor({ timeout: 60_000 });
    const evaluation = (await call('GET', `/api/v1/interviews/${interviewId}/evaluation`, { key: s.key })).body.data;
    assert.equal(evaluation.status, 'completed');
    const card = page.locator('section[aria-labelledby="scorecard-title"]');
    assert.match(await card.textContent() ?? '', new RegExp(`${evaluation.overallScore ?? '—'}\\s*/100`));
    for (const heading of ['Strengths', 'Concerns']) await card.getByRole('heading', { name: heading }).waitFor();
    for (const c of evaluation.competencies as { name: string; rationale: string }[]) {
      assert.match(await card.textContent() ?? '', new RegExp(c.rationale.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    }
    const transcript = page.locator('section[aria-labelledby="transcript-title"]');
    for (const answer of ANSWERS) await transcript.getByText(answer).waitFor();

    // A person decides: recorded with the console user as the reviewer.
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.getByText('Choose advance, hold or reject.').waitFor();
    await page.getByLabel('Advance').check();
    await page.getByLabel('Note').fill('Clear, practical answers.');
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.locator('#current-review').getByText('Advance').waitFor();
    const reviewed = (await call('GET', `/api/v1/interviews/${interviewId}/evaluation`, { key: s.key })).body.data.review;
    assert.equal(reviewed.decision, 'advance');
    assert.equal(reviewed.note, 'Clear, practical answers.');
    assert.equal(reviewed.reviewer.type, 'user');
    assert.match(reviewed.reviewer.name, /^Recruiter /);
    assert.match(await page.locator('#current-review').textContent() ?? '', /console user/);

    // The list's status filter, in the URL.
    await openView(page, 'interviews?status=completed', 'Interviews');
    await page.getByRole('link', { name: `${CONSOLE_TITLE} interview` }).waitFor();
    await openView(page, 'interviews?status=cancelled', 'Interviews');
    await page.getByText('No cancelled interviews.').waitFor();
    assert.deepEqual(recruiter.errors, []);
    await recruiter.close();
  });

  it('cancel with a reason, after a confirmation; the link stops and the timeline says why', async () => {
    const interview = await schedule(s.key, positionId);
    const recruiter = await openPage(s.browser, WIDTHS.desktop);
    const { page } = recruiter;
    await logIn(page, s.user, `interviews/${interview.id}`);
    await page.getByRole('heading', { level: 1, name: `${TITLE} interview` }).waitFor();
    await page.getByRole('button', { name: 'Cancel interview' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel interview' }).click();
    await dialog.getByText('Say why').waitFor();
    await dialog.getByLabel('Reason').fill('The role was filled.');
    await dialog.getByRole('button', { name: 'Cancel interview' }).click();
    await page.locator('.timeline').getByText('The role was filled.').waitFor();
    assert.equal(await page.getByLabel('Invite URL').count(), 0, 'no invite URL once cancelled');
    // The Cancel button went with the interview's open state: focus goes to what replaced it.
    await waitForFocus(page, page.getByText('The invite link no longer starts an interview.'), 'after cancelling');
    const cancelled = (await call('GET', `/api/v1/interviews/${interview.id}`, { key: s.key })).body.data;
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancellationReason, 'The role was filled.');
    await openView(page, 'interviews?status=cancelled', 'Interviews');
    await page.getByRole('link', { name: `${TITLE} interview` }).waitFor();
    assert.deepEqual(recruiter.errors, []);
    await recruiter.close();
  });

  it('the list pages through more than one page, and back', async () => {
    const other = await newConsoleUser();
    const otherKey = (await newKey(other.organizationId, ['read', 'write'])).key;
    const position = (await newPosition(otherKey, { title: 'Paging' })).id;
    for (let n = 0; n < 26; n++) await schedule(otherKey, position);
    const view = await openPage(s.browser, WIDTHS.desktop);
    const { page } = view;
    await logIn(page, other, 'interviews');
    const rows = page.locator('table.data-table tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 25);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2').waitFor();
    assert.equal(await eventually(() => rows.count(), (n) => n === 1), 1, 'the 26th interview on page 2');
    assert.ok(await page.getByRole('button', { name: 'Next' }).isDisabled(), 'no page after the last');
    // The page is in the URL: a reload shows it again.
    await page.reload();
    await page.getByText('Page 2').waitFor();
    assert.equal(await eventually(() => rows.count(), (n) => n === 1), 1, 'page 2 after a reload');
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1').waitFor();
    assert.equal(await eventually(() => rows.count(), (n) => n === 25), 25, 'page 1 again');
    assert.deepEqual(view.errors, []);
    await view.close();
  });

  it('every Interviews view at 1280 and 390 px: no horizontal overflow, no page error; an unknown id is a not-found page', async () => {
    const completed = await eventually(
      async () => (await call('GET', '/api/v1/interviews?status=completed', { key: s.key })).body.data as { id: string }[],
      (items) => items.length > 0,
    );
    for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
      const view = await openPage(s.browser, width);
      await logIn(view.page, s.user);
      await checkView(view, 'interviews', 'Interviews');
      await checkView(view, 'interviews/new', 'Schedule an interview');
      await checkView(view, `interviews/${completed[0]!.id}`);
      await view.page.getByRole('heading', { name: /^Your decision/ }).waitFor();
      await checkView(view, 'interviews/int_0000000000000000000000000000', 'No such interview');
      await checkView(view, 'interviews/nope', 'No such interview');
      await view.close();
    }
  });
});
