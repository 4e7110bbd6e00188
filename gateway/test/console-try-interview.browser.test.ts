import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '@hireloop/devstack/testing';
import { assertNoOverflow, assertNoPageErrors, consoleSession, logIn, openPage, openView, skipWithoutChromium as skip, WIDTHS } from './console-helpers.js';
import { answerTurn, FOLLOW_UP_ANSWER, openInvite, schedule, startInvite, tokenOf } from './interview-helpers.js';
import { stackConnections } from './stack-connections.js';

// The interviewer in the console (PRODUCT.md §12): "Try the interview" runs a position's
// conversation as a preview (nothing stored as a candidate's interview; labelled in the audit
// log), and the transcript shows follow-ups, why a follow-up was skipped, and the signals.

const { db } = stackConnections();

describe('console: try the interview, and the transcript of a conversation', { skip }, () => {
  const s = consoleSession(['read', 'write', 'admin'], 6000);

  it('"Try the interview" asks the questions one at a time with the follow-ups, stores no interview, and is labelled in the audit log', async () => {
    const position = (await call('POST', '/api/v1/positions', { key: s.key, body: { title: 'Preview Engineer', interviewQuestions: ['Why this team?', 'A hard bug?'] } })).body.data;
    for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, s.user, `positions/${position.id}`);
      await page.getByRole('link', { name: 'Try the interview' }).click();
      await page.getByRole('heading', { level: 1, name: 'Try the interview: Preview Engineer' }).waitFor();
      await page.getByRole('button', { name: 'Start the preview' }).click();
      await page.locator('#try-current').getByText('Why this team?').waitFor();
      // Too long (as the API counts: code points) is said, not silently ignored; 10 000 emoji are not too long.
      await page.getByLabel('Your answer').fill('x'.repeat(10_001));
      await page.getByRole('button', { name: 'Send answer' }).click();
      await page.getByText('Your answer is 10,001 characters long').waitFor();
      assert.equal(await page.getByLabel('Your answer').getAttribute('aria-invalid'), 'true');
      await page.getByLabel('Your answer').fill('Yes.');
      await page.getByRole('button', { name: 'Send answer' }).click();
      await page.getByText('Question 1 of 2 · follow-up').waitFor();
      assert.match((await page.locator('#try-current').textContent()) ?? '', /concrete example/);
      await page.getByLabel('Your answer').fill(FOLLOW_UP_ANSWER);
      await page.getByRole('button', { name: 'Send answer' }).click();
      await page.locator('#try-current').getByText('A hard bug?').waitFor();
      await page.getByLabel('Your answer').fill(FOLLOW_UP_ANSWER);
      await page.getByRole('button', { name: 'Send answer' }).click();
      await page.locator('#try-ended').waitFor();
      assert.equal(await page.locator('.transcript > li').count(), 6, 'question, answer, follow-up, answer, question, answer');
      await assertNoOverflow(page, `the preview at ${width} px`);
      assertNoPageErrors(view.errors, `the preview at ${width} px`);
      await view.close();
    }
    const interviews = await call('GET', `/api/v1/interviews?positionId=${position.id}`, { key: s.key });
    assert.deepEqual(interviews.body.data, [], 'no interview is stored');
    const candidates = await db.query(`select count(*)::int as n from recruiting.interview_turns t join recruiting.interviews i on i.id = t.interview_id where i.position_id = $1`, [position.id]);
    assert.equal(candidates.rows[0].n, 0, 'no turn is stored');
    const audit = await call('GET', `/api/v1/audit-events?resourceId=${position.id}&action=interview.previewed`, { key: s.key });
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.data.length, 2, 'one audit event per preview started');
    assert.equal(audit.body.data[0].actor.type, 'user');
    assert.equal(audit.body.data[0].resource.type, 'position');
  });

  it('the transcript shows the follow-up, why a follow-up was skipped, and the answer\'s signals', async () => {
    const position = (await call('POST', '/api/v1/positions', { key: s.key, body: { title: 'Transcript Engineer', interviewQuestions: ['Why this team?', 'A hard bug?'] } })).body.data;
    const interview = await schedule(s.key, position.id);
    const token = tokenOf(interview.inviteUrl);
    await startInvite(token);
    const first = (await openInvite(token)).turn!;
    const signals = { paste: [{ at: new Date().toISOString(), characters: 321 }], focusLost: { count: 3, seconds: 40 }, typingSeconds: 12 };
    await answerTurn(token, first.id, 'Yes.', [['signals', JSON.stringify(signals)]]);
    const followUp = (await openInvite(token)).turn!;
    await answerTurn(token, followUp.id, FOLLOW_UP_ANSWER);
    await db.query(`update recruiting.interviews set started_at = now() - interval '1 hour' where id = $1`, [interview.id]);
    const second = (await openInvite(token)).turn!;
    await answerTurn(token, second.id, 'No.');

    const view = await openPage(s.browser, WIDTHS.desktop);
    await logIn(view.page, s.user);
    await openView(view.page, `interviews/${interview.id}`);
    const transcript = view.page.locator('.transcript');
    await transcript.getByText('Follow-up').first().waitFor();
    assert.match((await transcript.textContent()) ?? '', /concrete example/);
    assert.match((await transcript.textContent()) ?? '', /no follow-up: the time budget was spent/);
    assert.match((await transcript.textContent()) ?? '', /Signals, not scored: pasted 1× \(321 characters\) · left the page 3× \(40 s\) · 12 s of typing/);
    assertNoPageErrors(view.errors, 'the transcript');
    await view.close();
  });
});
