import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually } from '@hireloop/devstack/testing';
import { assertNoOverflow, assertNoPageErrors, consoleSession, logIn, openPage, openView, skipWithoutChromium as skip, WIDTHS } from './console-helpers.js';
import { schedule, startInvite, submitInvite, tokenOf } from './interview-helpers.js';

/**
 * Issue 21 in the console (PRODUCT.md §12): the rubric editor saves a new rubric version, the
 * scorecard shows each competency with its verified quotes (the stack's offline provider quotes
 * the answers deterministically), a quote click scrolls the transcript to its turn and marks the
 * words, and a re-run shows version 2.
 */
describe('console: rubric, scorecard with evidence, and versions', { skip }, () => {
  const s = consoleSession(['read', 'write'], 6000);
  const anchors = (what: string) => [1, 2, 3, 4, 5].map((n) => `${what} level ${n}`);
  const rubric = {
    competencies: [
      { key: 'explaining', name: 'Explaining', description: 'Explains plans clearly to colleagues.', weight: 2, levels: anchors('Explains plans') },
      { key: 'debugging', name: 'Debugging', description: 'Finds the cause of failures with measurements.', weight: 1, levels: anchors('Debugging failures') },
    ],
  };
  const ANSWERS = [
    'First I write the plan down. Then I explain the plans clearly to my colleagues, with a drawing.',
    'I measured the failures and found the cause in a race between two workers.',
  ];

  it('the rubric editor saves a new version; a quote click highlights its turn; a re-run shows version 2', async () => {
    const created = await call('POST', '/api/v1/positions', {
      key: s.key,
      body: { title: 'Evidence Engineer', rubric, questions: [{ text: 'How do you explain a plan?', competencies: ['explaining'] }, { text: 'How do you debug?', competencies: ['debugging'] }] },
    });
    assert.equal(created.status, 201, created.text);
    const position = created.body.data;
    const interview = await schedule(s.key, position.id);
    const token = tokenOf(interview.inviteUrl);
    await startInvite(token);
    assert.equal((await submitInvite(token, ANSWERS)).status, 303);
    const evaluation = await eventually(
      async () => (await call('GET', `/api/v1/interviews/${interview.id}/evaluation`, { key: s.key })).body.data,
      (e) => e.status === 'completed' || e.status === 'failed',
    );
    assert.equal(evaluation.status, 'completed', JSON.stringify(evaluation));
    const quoted = evaluation.competencyScores.find((c: { evidence: unknown[] }) => c.evidence.length > 0);
    assert.ok(quoted, `the offline provider quotes the answers: ${JSON.stringify(evaluation.competencyScores)}`);
    const evidence = quoted.evidence[0] as { turnId: string; quote: string };

    const view = await openPage(s.browser, WIDTHS.desktop);
    const { page } = view;
    await logIn(page, s.user, `positions/${position.id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit Evidence Engineer' }).waitFor();
    assert.equal(await page.getByLabel('Competency 1 anchor 5').inputValue(), 'Explains plans level 5');
    await page.getByLabel('Competency 2 weight').fill('11');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.locator('[aria-invalid="true"]').first().waitFor();
    assert.equal(await page.getByLabel('Competency 2 weight').getAttribute('aria-invalid'), 'true', 'a weight outside 1–10 is refused on its field');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.id), await page.getByLabel('Competency 2 weight').getAttribute('id'), 'the focus moves to the field refused');
    await page.getByLabel('Competency 2 weight').fill('3');
    await page.getByLabel('Competency 2 anchor 5').fill('Finds the root cause and proves it with a measurement.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Evidence Engineer' }).waitFor();
    await page.getByText('version 2').first().waitFor();
    const stored = (await call('GET', `/api/v1/positions/${position.id}`, { key: s.key })).body.data;
    assert.equal(stored.rubric.version, 2);
    assert.equal(stored.rubric.competencies[1].weight, 3);
    assert.equal(stored.rubric.competencies[1].levels[4], 'Finds the root cause and proves it with a measurement.');
    assert.deepEqual(stored.questions.map((q: { competencies: string[] }) => q.competencies), [['explaining'], ['debugging']], 'the questions are kept');

    await openView(page, `interviews/${interview.id}`);
    const card = page.locator('section[aria-labelledby="scorecard-title"]');
    await card.getByRole('heading', { name: /^Your decision on version 1/ }).waitFor({ timeout: 60_000 });
    assert.match(await page.locator('#provenance').textContent() ?? '', /rubric version 1/);
    if (evaluation.competencyScores.some((c: { score: number | null }) => c.score === null)) await card.getByText('Insufficient evidence').first().waitFor();
    await card.getByRole('button', { name: `“${evidence.quote}”` }).first().click();
    const turn = page.locator(`#turn-${evidence.turnId}`);
    await turn.locator('mark').waitFor();
    assert.equal(await turn.locator('mark').textContent(), evidence.quote, 'the quoted words are marked in their turn');
    assert.match(await turn.getAttribute('class') ?? '', /turn-highlighted/);
    assert.ok(await turn.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top < window.innerHeight && r.bottom > 0; }), 'the turn is scrolled into view');

    await page.getByRole('button', { name: 'Re-run with the current rubric' }).click();
    await card.getByRole('button', { name: 'Version 2' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Re-run with the current rubric', 'keyboard focus stays on the button, not the page');
    await card.getByRole('heading', { name: /^Your decision on version 2/ }).waitFor({ timeout: 60_000 });
    assert.match(await page.locator('#provenance').textContent() ?? '', /Version 2 · rubric version 2/);
    const versions = (await call('GET', `/api/v1/interviews/${interview.id}/evaluations`, { key: s.key })).body.data;
    assert.deepEqual(versions.map((v: { version: number; rubricVersion: number }) => [v.version, v.rubricVersion]), [[2, 2], [1, 1]]);
    // A refusal on version 2's form does not stay on screen for version 1.
    await card.getByLabel('Note').fill('x'.repeat(10));
    await card.getByRole('button', { name: 'Record decision' }).click();
    await card.getByText('Choose advance, hold or reject.').waitFor();
    await card.getByRole('button', { name: 'Version 1' }).click();
    await card.getByRole('heading', { name: /^Your decision on version 1/ }).waitFor();
    assert.equal(await card.getByText('Choose advance, hold or reject.').count(), 0, 'the other version\'s errors are cleared');
    assert.equal(await card.getByLabel('Note').inputValue(), '', 'and its draft');
    await assertNoOverflow(page, 'the scorecard with versions');
    assertNoPageErrors(view.errors, 'the scorecard');
    await view.close();
  });

  it('the rubric editor carries a renamed competency into its questions, and drops a removed one from them', async () => {
    const created = await call('POST', '/api/v1/positions', {
      key: s.key,
      body: { title: 'Rename Engineer', rubric, questions: [{ text: 'How do you explain a plan?', competencies: ['explaining', 'debugging'] }, { text: 'How do you debug?', competencies: ['debugging'] }] },
    });
    assert.equal(created.status, 201, created.text);
    const position = created.body.data;
    const view = await openPage(s.browser, WIDTHS.desktop);
    const { page } = view;
    await logIn(page, s.user, `positions/${position.id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit Rename Engineer' }).waitFor();
    await page.getByLabel('Competency 2 key').fill('diagnosis');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: /^Rename Engineer/ }).waitFor();
    const renamed = (await call('GET', `/api/v1/positions/${position.id}`, { key: s.key })).body.data;
    assert.deepEqual(renamed.questions.map((q: { competencies: string[] }) => q.competencies), [['explaining', 'diagnosis'], ['diagnosis']]);

    await openView(page, `positions/${position.id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit Rename Engineer' }).waitFor();
    await page.getByRole('button', { name: 'Remove competency 1' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: /^Rename Engineer/ }).waitFor();
    const removed = (await call('GET', `/api/v1/positions/${position.id}`, { key: s.key })).body.data;
    assert.deepEqual(removed.rubric.competencies.map((c: { key: string }) => c.key), ['diagnosis']);
    assert.deepEqual(removed.questions.map((q: { competencies: string[] }) => q.competencies), [['diagnosis'], ['diagnosis']]);
    assertNoPageErrors(view.errors, 'the rubric editor');
    await view.close();
  });
});
