import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, eventually, newOrganizationWithKey } from '@hireloop/devstack/testing';
import { newPosition, schedule } from './interview-helpers.js';
import { skipWithoutChromium as skip, suiteBrowser, WIDTHS } from './console-helpers.js';
import { assertAccessible, focusedId, tabTo } from './invite-browser.js';
import { stackConnections } from './stack-connections.js';

// The invite page in a real browser (PRODUCT.md §12): the conversation with JavaScript on and
// off, resuming, accessibility (axe-core at 1280 and 390 px, keyboard only). The stack's
// interviewer is the offline one: a thin answer gets a follow-up.

const QUESTIONS = ['What is an SLO?', 'How do you run an incident?', 'What do you automate first?'];
const FULL = [
  'A target for a service level indicator, agreed with the product team, with an error budget we spend on purpose.',
  'Roles first: an incident commander, a scribe and someone on comms; then mitigate, then find the cause, then write it up.',
  'Whatever wakes people up at night: the pages that recur, then the manual steps of every release, measured before and after.',
];
const FOLLOW_UP = 'Last quarter our checkout latency SLO burned its budget in a week; I traced it to a retry storm, added jitter, and the burn stopped.';

const { db } = stackConnections();

describe('the invite page in a real browser', { skip }, () => {
  const s = suiteBrowser();
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key, { title: 'Site Reliability Engineer', interviewQuestions: QUESTIONS })).id;
  });
  const api = async (path: string) => (await call('GET', `/api/v1${path}`, { key: org.key })).body.data;
  const turnText = (page: Page) => page.locator('#turn-text').textContent();

  it('with JavaScript: consent, a thin answer, a follow-up without a reload, the other questions, completion, then the evaluation and the transcript with the follow-up', async () => {
    const interview = await schedule(org.key, positionId);
    const context = await s.browser.newContext({ viewport: { width: WIDTHS.desktop, height: 900 } });
    const page = await context.newPage();
    const external: string[] = [];
    const errors: string[] = [];
    // Once the conversation runs: every request the page makes (one per turn is the point).
    let walking = false;
    const turnRequests: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(new URL(interview.inviteUrl).origin)) external.push(r.url());
      else if (walking) turnRequests.push(`${r.method()} ${new URL(r.url()).pathname.replace(/\/i\/[^/]+/, '/i/…')}`);
    });
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (/Content Security Policy|Refused to/i.test(msg.text())) errors.push(msg.text());
    });
    await page.goto(interview.inviteUrl);
    assert.equal(await page.locator('h1').textContent(), 'Site Reliability Engineer interview');
    assert.match((await page.textContent('body')) ?? '', /3 questions/);
    assert.match((await page.locator('#ai-notice').textContent()) ?? '', /a person .* makes the decision/i);
    assert.match((await page.locator('#ai-notice').textContent()) ?? '', /integrity signals/i);
    await page.click('#start');
    await page.waitForSelector('#turn-text');
    assert.equal(await turnText(page), QUESTIONS[0]);
    assert.equal(await page.locator('textarea').count(), 1, 'one question at a time');
    assert.equal((await api(`/interviews/${interview.id}`)).status, 'in_progress');

    // From here on no page load: the script posts the form and swaps in the next turn.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    walking = true;
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const text = document.getElementById('preparing')?.textContent;
        if (text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The counter counts characters as the server does: code points (an emoji is one).
    await page.fill('#answer', '\u{1F600}\u{1F600}\u{1F600}');
    assert.equal(await page.textContent('#answer-count'), '3 of 10,000 characters');
    await page.fill('#answer', 'Yes.');
    // Integrity signals (JavaScript only): a paste of 42 characters, and the page left once.
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'x'.repeat(42));
      document.getElementById('answer')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true }));
      window.dispatchEvent(new Event('blur'));
      window.dispatchEvent(new Event('focus'));
    });
    await page.click('#send');
    await page.locator('#turn-text .kind').waitFor();
    assert.match((await turnText(page)) ?? '', /concrete example/);
    assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'the follow-up arrived without a reload');
    assert.ok((await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).some((t) => /interviewer is reading/.test(t)), 'an indicator showed while it was prepared');
    assert.equal(await focusedId(page), 'turn-text', 'focus moves to the new turn');
    assert.equal(await page.inputValue('#answer'), '', 'a fresh answer field');

    await page.fill('#answer', FOLLOW_UP);
    await page.click('#send');
    await page.waitForFunction((q) => document.getElementById('turn-text')?.textContent === q, QUESTIONS[1]);
    for (const [i, answer] of FULL.slice(1).entries()) {
      await page.fill('#answer', answer);
      await page.click('#send');
      if (i < FULL.length - 2) await page.waitForFunction((q) => document.getElementById('turn-text')?.textContent === q, QUESTIONS[i + 2]);
    }
    await page.waitForSelector('#done');
    assert.match((await page.textContent('h2')) ?? '', /Thank you/);
    assert.equal(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed), true, 'no reload to the end');
    // The next page comes in the answer (Prefer: return=representation), not from a redirect.
    assert.deepEqual(turnRequests, Array(2 + FULL.length - 1).fill('POST /i/…/answer'), 'one request per turn');
    assert.equal(external.length, 0, `the page loaded nothing from elsewhere: ${external.join(', ')}`);
    assert.deepEqual(errors, [], 'no script error and nothing refused by the CSP');
    await context.close();

    assert.equal((await api(`/interviews/${interview.id}`)).status, 'completed');
    const evaluation = await eventually(async () => api(`/interviews/${interview.id}/evaluation`), (e) => e.status === 'completed' || e.status === 'failed');
    assert.equal(evaluation.status, 'completed', JSON.stringify(evaluation));
    assert.deepEqual(evaluation.answers.map((a: { answer: string }) => a.answer), ['Yes.', ...FULL.slice(1)]);
    const turns = (await api(`/interviews/${interview.id}/transcript`)).turns as { kind: string; text: string; signals?: { paste?: { characters: number }[]; focusLost?: { count: number } } }[];
    assert.deepEqual(turns.map((t) => t.kind), ['question', 'answer', 'follow_up', 'answer', 'question', 'answer', 'question', 'answer']);
    assert.match(turns[2]!.text, /concrete example/);
    assert.deepEqual(turns[1]!.signals?.paste?.map((p) => p.characters), [42], 'the paste is on the answer turn');
    assert.equal(turns[1]!.signals?.focusLost?.count, 1);
  });

  it('without JavaScript: the same journey, one form post and one page per turn', async () => {
    const interview = await schedule(org.key, positionId);
    const context = await s.browser.newContext({ javaScriptEnabled: false, viewport: { width: WIDTHS.phone, height: 844 } });
    const page = await context.newPage();
    await page.goto(interview.inviteUrl);
    await page.click('#start');
    await page.waitForSelector('#turn-text');
    assert.equal(await turnText(page), QUESTIONS[0]);
    await page.fill('#answer', 'Yes.');
    await page.click('#send');
    await page.locator('#turn-text .kind').waitFor();
    assert.match((await turnText(page)) ?? '', /Follow-up question.*concrete example/);
    await page.fill('#answer', FOLLOW_UP);
    await page.click('#send');
    for (const [i, answer] of FULL.slice(1).entries()) {
      assert.equal(await turnText(page), QUESTIONS[i + 1]);
      assert.match((await page.textContent('#progress')) ?? '', new RegExp(`Question ${i + 2} of 3`));
      await page.fill('#answer', answer);
      await page.click('#send');
    }
    await page.waitForSelector('#done');
    await context.close();
    const turns = (await api(`/interviews/${interview.id}/transcript`)).turns as { kind: string; signals?: unknown }[];
    assert.deepEqual(turns.map((t) => t.kind), ['question', 'answer', 'follow_up', 'answer', 'question', 'answer', 'question', 'answer']);
    assert.ok(turns.every((t) => t.signals === undefined), 'no script, no signals');
    assert.equal((await api(`/interviews/${interview.id}`)).status, 'completed');
  });

  it('resumes: a closed tab reopened shows the same turn; a stale tab gets the current turn with its text kept', async () => {
    const interview = await schedule(org.key, positionId);
    const context = await s.browser.newContext();
    const first = await context.newPage();
    await first.goto(interview.inviteUrl);
    await first.click('#start');
    await first.fill('#answer', FULL[0]!);
    await first.click('#send');
    await first.waitForFunction((q) => document.getElementById('turn-text')?.textContent === q, QUESTIONS[1]);
    await first.close();
    const reopened = await context.newPage();
    await reopened.goto(interview.inviteUrl);
    assert.equal(await turnText(reopened), QUESTIONS[1], 'the same turn after closing the tab');

    // Two tabs on the same turn: the second one's answer comes back, kept, with the current turn.
    const other = await context.newPage();
    await other.goto(interview.inviteUrl);
    await reopened.fill('#answer', FULL[1]!);
    await reopened.click('#send');
    await reopened.waitForFunction((q) => document.getElementById('turn-text')?.textContent === q, QUESTIONS[2]);
    await other.fill('#answer', 'Typed in the other tab.');
    await other.click('#send');
    await other.locator('#problem').waitFor();
    assert.match((await other.textContent('#problem')) ?? '', /already answered/);
    assert.equal(await turnText(other), QUESTIONS[2]);
    assert.equal(await other.inputValue('#answer'), 'Typed in the other tab.');
    assert.equal(await focusedId(other), 'problem', 'focus moves to the message');
    await context.close();
    const answers = ((await api(`/interviews/${interview.id}/transcript`)).turns as { kind: string; text: string }[]).filter((t) => t.kind === 'answer');
    assert.deepEqual(answers.map((t) => t.text), [FULL[0], FULL[1]]);
  });

  it('axe-core finds no violation on any state of the page, at 1280 and 390 px, and every state fits 390 px', async () => {
    const cancelled = await schedule(org.key, positionId);
    await call('DELETE', `/api/v1/interviews/${cancelled.id}`, { key: org.key });
    const expired = await schedule(org.key, positionId);
    await db.query(`update recruiting.interviews set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    const declined = await schedule(org.key, positionId);
    const german = await schedule(org.key, positionId, { language: 'de' });
    for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
      const context = await s.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const check = async (what: string) => {
        await assertAccessible(page, `${what} at ${width} px`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${what} at ${width} px: no horizontal scrolling`);
      };
      const interview = await schedule(org.key, positionId);
      await page.goto(interview.inviteUrl);
      await check('the notice and consent');
      await page.click('#start');
      await page.waitForSelector('#turn-text');
      await check('a scripted question');
      await page.fill('#answer', 'Yes.');
      await page.click('#send');
      await page.locator('#turn-text .kind').waitFor();
      await check('a follow-up, swapped in by the script');
      // The server's own pages for bad input, posted without the script's checks.
      await page.fill('#answer', 'x'.repeat(10_001));
      await Promise.all([page.waitForEvent('load'), page.evaluate(() => (document.getElementById('turn-form') as HTMLFormElement).submit())]);
      assert.match((await page.textContent('#problem')) ?? '', /at most 10,000/);
      await check('an answer too long (422)');
      await page.evaluate(() => (document.querySelector('input[name="turn"]') as HTMLInputElement).value = 'turn_stale');
      await page.fill('#answer', 'An answer to an old turn.');
      await Promise.all([page.waitForEvent('load'), page.evaluate(() => (document.getElementById('turn-form') as HTMLFormElement).submit())]);
      assert.match((await page.textContent('#problem')) ?? '', /already answered/);
      assert.equal(await page.getAttribute('#answer', 'aria-invalid'), null, 'a stale page is not the answer\'s fault');
      await check('a stale page (409)');
      for (const answer of [FOLLOW_UP, ...FULL.slice(1)]) {
        await page.fill('#answer', answer);
        await page.click('#send');
        await page.waitForFunction((a) => !document.getElementById('answer') || (document.getElementById('answer') as HTMLTextAreaElement).value !== a, answer);
      }
      await page.waitForSelector('#done');
      await check('the thank-you page');
      for (const [url, what] of [
        [cancelled.inviteUrl, 'a cancelled interview'],
        [expired.inviteUrl, 'an expired invite'],
        [german.inviteUrl, 'the German notice'],
        [`${new URL(cancelled.inviteUrl).origin}/i/not-a-real-token-0123456789abcdef`, 'an unknown invite'],
      ] as const) {
        await page.goto(url);
        await check(what);
      }
      if (width === WIDTHS.desktop) {
        await page.goto(declined.inviteUrl);
        await page.click('#decline');
        await page.waitForSelector('#declined');
        await check('the declined page');
      }
      await context.close();
    }
  });

  it('keyboard only, from consent to the end, with the time left announced politely', async () => {
    const interview = await schedule(org.key, positionId);
    const context = await s.browser.newContext();
    const page = await context.newPage();
    await page.goto(interview.inviteUrl);
    await tabTo(page, '#start');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#turn-text');
    assert.equal(await page.getAttribute('#time-announcer', 'aria-live'), 'polite');
    assert.match((await page.textContent('#time-left')) ?? '', /About 30 minutes left/);
    const answers = ['Yes.', FOLLOW_UP, ...FULL.slice(1)];
    for (const answer of answers) {
      await tabTo(page, '#answer');
      await page.keyboard.type(answer, { delay: 0 });
      await tabTo(page, '#send');
      const before = await turnText(page);
      await page.keyboard.press('Enter');
      await page.waitForFunction((b) => document.getElementById('turn-text')?.textContent !== b, before);
      if (answer !== answers.at(-1)) assert.equal(await focusedId(page), 'turn-text', 'focus on the new turn');
    }
    await page.waitForSelector('#done');
    await context.close();
    assert.equal((await api(`/interviews/${interview.id}`)).status, 'completed');
  });

  it('the time left is kept current, announced at 10 minutes and when the time is up, and not in between', async () => {
    const interview = await schedule(org.key, positionId);
    const context = await s.browser.newContext();
    const page = await context.newPage();
    // The page's own clock, moved on by the test: the budget is 30 minutes.
    await page.clock.install();
    await page.goto(interview.inviteUrl);
    await page.click('#start');
    await page.waitForSelector('#turn-text');
    // The script is deferred: it runs, and reads the time left, only when the document is parsed.
    // Moving the clock before that would move it past a timer that does not exist yet.
    await page.waitForLoadState('domcontentloaded');
    const announced = () => page.textContent('#time-announcer');
    const shown = () => page.textContent('#time-left');
    assert.match((await shown()) ?? '', /About 30 minutes left/);

    await page.clock.fastForward('06:00');
    assert.match((await shown()) ?? '', /About 24 minutes left/);
    assert.equal(await announced(), '', 'no announcement between the marks');

    await page.clock.fastForward('14:10');
    assert.match((await shown()) ?? '', /About 10 minutes left/);
    assert.match((await announced()) ?? '', /About 10 minutes left/);

    await page.clock.fastForward('02:00');
    assert.match((await shown()) ?? '', /About 8 minutes left/);
    assert.match((await announced()) ?? '', /About 10 minutes left/, 'the last announcement stays; the minutes in between are not announced');

    await page.clock.fastForward('08:00');
    assert.match((await shown()) ?? '', /The suggested time is up/);
    assert.match((await announced()) ?? '', /The suggested time is up/);
    // Past the budget the candidate can still answer (PRODUCT.md §12): the form stays.
    assert.equal(await page.locator('#answer').count(), 1);
    await context.close();
  });
});
