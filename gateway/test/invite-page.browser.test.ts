import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually, newOrganizationWithKey } from '@hireloop/devstack/testing';
import { newPosition, schedule } from './interview-helpers.js';
import { skipWithoutChromium as skip, suiteBrowser } from './console-helpers.js';

describe('the invite page in a real browser', { skip }, () => {
  const s = suiteBrowser();
  let org: Awaited<ReturnType<typeof newOrganizationWithKey>>;
  let positionId: string;
  before(async () => {
    org = await newOrganizationWithKey(['read', 'write']);
    positionId = (await newPosition(org.key, { title: 'Site Reliability Engineer', interviewQuestions: ['What is an SLO?', 'How do you run an incident?', 'What do you automate first?'] })).id;
  });

  it('a candidate takes the interview end to end: reads the AI notice, agrees, answers each question, submits', async () => {
    const interview = await schedule(org.key, positionId);
    const page = await s.browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(new URL(interview.inviteUrl).origin)) external.push(r.url());
    });
    await page.goto(interview.inviteUrl);
    assert.equal(await page.locator('h1').textContent(), 'Site Reliability Engineer interview');
    assert.match(await page.textContent('body') ?? '', /3 questions/);
    assert.match(await page.locator('#ai-notice').textContent() ?? '', /a person .* makes the decision/i);
    assert.equal(await page.locator('#start').textContent(), 'I agree, start');
    await page.click('#start');
    await page.waitForSelector('textarea');
    const started = (await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data;
    assert.equal(started.status, 'in_progress');
    assert.ok(started.consent?.noticeVersion, 'consent is recorded with the notice version');
    const labels = await page.locator('label').allTextContents();
    assert.deepEqual(labels, ['1. What is an SLO?', '2. How do you run an incident?', '3. What do you automate first?']);
    const answers = ['A target for a service level indicator.', 'Roles first: commander, scribe, comms.', 'Whatever wakes people up at night.'];
    for (const [i, answer] of answers.entries()) await page.fill(`#answer-${i}`, answer);
    await page.click('#submit');
    await page.waitForSelector('text=Thank you');
    assert.equal(external.length, 0, `the page loaded nothing from elsewhere: ${external.join(', ')}`);
    await page.close();

    const done = (await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data;
    assert.equal(done.status, 'completed');
    const evaluation = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: org.key })).body.data,
      (e) => e.status === 'completed',
    );
    assert.deepEqual(evaluation.answers.map((a: { answer: string }) => a.answer), answers);
  });

  it('works without JavaScript at 390 px: no horizontal overflow, and declining shows the human alternative', async () => {
    const interview = await schedule(org.key, positionId);
    // Layout is measured in a scripted page of the same width; the candidate's page runs no script.
    const measure = await s.browser.newPage({ viewport: { width: 390, height: 844 } });
    const overflowAt = async (url: string) => {
      await measure.goto(url);
      return measure.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    };
    assert.equal(await overflowAt(interview.inviteUrl), 0, 'no horizontal scrolling at 390 px');
    const context = await s.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(interview.inviteUrl);
    await page.click('#decline');
    await page.waitForSelector('#declined');
    assert.match(await page.textContent('body') ?? '', /alternative with a person/);
    assert.equal(await page.locator('#start').count(), 0, 'no way to start it');
    await context.close();
    assert.equal(await overflowAt(interview.inviteUrl), 0, 'the declined page fits too');
    await measure.close();
    const declined = (await call('GET', `/api/v1/interviews/${interview.id}`, { key: org.key })).body.data;
    assert.equal(declined.status, 'declined');
    assert.ok(declined.declinedAt);
  });

  it('a cancelled, an expired and an unknown invite each show a clear page, not an error dump', async () => {
    const cancelled = await schedule(org.key, positionId);
    await call('DELETE', `/api/v1/interviews/${cancelled.id}`, { key: org.key });
    const expired = await schedule(org.key, positionId, { expiresInDays: 1 });
    const pg = await import('pg');
    const db = new pg.default.Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    await db.query(`update recruiting.interviews set expires_at = now() - interval '1 minute' where id = $1`, [expired.id]);
    await db.end();

    const page = await s.browser.newPage();
    const cases: [string, RegExp, number][] = [
      [cancelled.inviteUrl, /has been cancelled/, 200],
      [expired.inviteUrl, /has expired/, 200],
      [`${new URL(cancelled.inviteUrl).origin}/i/not-a-real-token-0123456789abcdef`, /not valid/, 404],
    ];
    for (const [url, text, status] of cases) {
      const response = await page.goto(url);
      assert.equal(response?.status(), status, url);
      const body = (await page.textContent('body')) ?? '';
      assert.match(body, text);
      assert.doesNotMatch(body, /Error:|at .*\.ts|stack|TRPC/i);
      assert.equal(await page.locator('#start').count(), 0, 'no way to start it');
    }
    await page.close();
  });
});
