import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '@hireloop/devstack/testing';
import { unique } from './api-assertions.js';
import { assertNoOverflow, assertNoPageErrors, assertNoSuchResource, checkView, consoleSession, logIn, openPage, skipWithoutChromium as skip, WIDTHS, waitForFocus } from './console-helpers.js';

// Issue 10: the Positions views (list, create and edit with the questions, close and reopen, an AI
// job description previewed as rendered Markdown and applied after a confirmation), at a laptop's
// and a phone's width.

describe('console: positions', { skip }, () => {
  const s = consoleSession(['read', 'write'], 6000);

  for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
    it(`at ${width} px: creates a position with questions, edits it, closes and reopens it with a confirmation`, async () => {
      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, s.user, 'positions');
      await checkView(view, 'positions', 'Positions');
      await page.getByRole('link', { name: 'New position' }).click();
      await page.getByRole('heading', { level: 1, name: 'New position' }).waitFor();

      const title = `Platform Engineer ${unique()}`;
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Department').fill('Infrastructure');
      await page.getByLabel('Employment type').selectOption('contract');
      await page.getByRole('button', { name: 'Add a question' }).click();
      await page.getByLabel('Question 1', { exact: true }).fill('What would you automate first?');
      await page.getByRole('button', { name: 'Add a question' }).click();
      await page.getByLabel('Question 2', { exact: true }).fill('Tell us about an outage you fixed.');
      await page.getByRole('button', { name: 'Move question 2 up' }).click();
      assert.equal(await page.getByLabel('Question 1', { exact: true }).inputValue(), 'Tell us about an outage you fixed.');
      // Focus follows the question; at the top its Up is disabled, so focus is on its Down, and the
      // keyboard alone moves it down and back up.
      const focusedOn = (name: string) => page.waitForFunction((label) => document.activeElement?.getAttribute('aria-label') === label, name, { timeout: 5000 });
      await focusedOn('Move question 1 down');
      await page.keyboard.press('Enter');
      await focusedOn('Move question 2 up');
      assert.equal(await page.getByLabel('Question 2', { exact: true }).inputValue(), 'Tell us about an outage you fixed.');
      await page.keyboard.press('Enter');
      await focusedOn('Move question 1 down');
      assert.equal(await page.getByLabel('Question 1', { exact: true }).inputValue(), 'Tell us about an outage you fixed.');
      await assertNoOverflow(page, `position form at ${width} px`);
      await page.getByRole('button', { name: 'Create position' }).click();

      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      const id = /\/positions\/(pos_[^/]+)$/.exec(page.url())?.[1];
      assert.ok(id, page.url());
      let stored = (await call('GET', `/api/v1/positions/${id}`, { key: s.key })).body.data;
      assert.deepEqual(stored.interviewQuestions, ['Tell us about an outage you fixed.', 'What would you automate first?']);
      assert.equal(stored.employmentType, 'contract');
      assert.equal(stored.department, 'Infrastructure');
      await assertNoOverflow(page, `position page at ${width} px`);

      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { level: 1, name: `Edit ${title}` }).waitFor();
      await page.getByLabel('Title').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      assert.equal(await page.getByLabel('Title').getAttribute('aria-invalid'), 'true', 'an empty title is refused on its field');
      await page.getByLabel('Title').fill(`${title} II`);
      await page.getByLabel('Department').fill('');
      await page.getByRole('button', { name: 'Remove question 2' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { level: 1, name: `${title} II` }).waitFor();
      stored = (await call('GET', `/api/v1/positions/${id}`, { key: s.key })).body.data;
      assert.deepEqual(stored.interviewQuestions, ['Tell us about an outage you fixed.']);
      assert.equal(stored.department, null, 'a cleared field is cleared');

      await page.getByRole('button', { name: 'Close position' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('No new interviews can be scheduled', { exact: false }).waitFor();
      await assertNoOverflow(page, `close confirmation at ${width} px`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await call('GET', `/api/v1/positions/${id}`, { key: s.key })).body.data.status, 'open', 'cancelled: nothing changed');
      await page.getByRole('button', { name: 'Close position' }).click();
      await dialog.getByRole('button', { name: 'Close position' }).click();
      await page.getByRole('button', { name: 'Reopen position' }).waitFor();
      assert.equal((await call('GET', `/api/v1/positions/${id}`, { key: s.key })).body.data.status, 'closed');
      const refused = await call('POST', '/api/v1/interviews', { key: s.key, body: { positionId: id, candidate: { email: `c-${unique()}@example.com`, name: 'C' } } });
      assert.equal(refused.status, 409);

      await page.getByRole('button', { name: 'Reopen position' }).click();
      await dialog.getByRole('button', { name: 'Reopen position' }).click();
      await page.getByRole('button', { name: 'Close position' }).waitFor();
      assert.equal((await call('GET', `/api/v1/positions/${id}`, { key: s.key })).body.data.status, 'open');

      await page.getByRole('link', { name: '← Positions' }).click();
      await page.getByLabel('Status').selectOption('open');
      await page.getByRole('link', { name: `${title} II` }).waitFor();
      await page.getByLabel('Status').selectOption('closed');
      await page.getByText('No closed positions.').waitFor();
      assertNoPageErrors(view.errors, `positions at ${width} px`);
      await view.close();
    });

    it(`at ${width} px: generates an AI job description, previews it rendered, and applies it after a confirmation`, async () => {
      const created = await call('POST', '/api/v1/positions', { key: s.key, body: { title: `Data Analyst ${unique()}`, location: 'Lisbon' } });
      assert.equal(created.status, 201, created.text);
      const position = created.body.data as { id: string; title: string };
      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, s.user, `positions/${position.id}`);
      await checkView(view, `positions/${position.id}`, position.title);

      await page.getByLabel('Seniority').fill('Senior');
      await page.getByLabel('Skills').fill('SQL, dbt');
      const generate = page.getByRole('button', { name: 'Generate' });
      await generate.focus();
      await page.keyboard.press('Enter');
      const preview = page.getByRole('region', { name: 'Preview of the job description' });
      // Rendered, not raw: the Markdown's "# Senior …" is a heading, and its lists are lists.
      await preview.getByRole('heading', { name: `Senior ${position.title}` }).waitFor({ timeout: 60_000 });
      assert.ok(await preview.getByRole('listitem').count() > 0);
      assert.doesNotMatch((await preview.textContent()) ?? '', /^#|\n#/);
      // The button stayed focusable while the task ran (a disabled one drops focus to <body>).
      await waitForFocus(page, page.getByRole('button', { name: 'Generate again' }), 'after generating');
      await assertNoOverflow(page, `job description preview at ${width} px`);
      assert.equal((await call('GET', `/api/v1/positions/${position.id}`, { key: s.key })).body.data.description, null, 'nothing applied before the confirmation');

      await page.getByRole('button', { name: 'Apply to this position' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('Applied: this is now the position\'s description.').waitFor();
      // The Apply button is replaced by the message, which takes focus.
      await waitForFocus(page, page.getByText('Applied: this is now the position\'s description.'), 'after applying');
      const stored = (await call('GET', `/api/v1/positions/${position.id}`, { key: s.key })).body.data;
      assert.match(stored.description, /^# Senior/);
      assert.match(stored.description, /SQL/);
      const description = page.getByRole('region', { name: 'Description', exact: true });
      await description.getByRole('heading', { name: `Senior ${position.title}` }).waitFor();
      assert.ok(await description.getByRole('listitem').count() > 0);
      assertNoPageErrors(view.errors, `job description at ${width} px`);
      await view.close();
    });
  }

  it('a well-formed id of no position is a not-found page with the way back, not an error with Retry', async () => {
    const view = await openPage(s.browser, WIDTHS.phone);
    await logIn(view.page, s.user);
    const missing = 'pos_0000000000000000000000000000';
    for (const path of [missing, `${missing}/edit`, `${missing}/try`]) await assertNoSuchResource(view, `positions/${path}`, 'No such position', 'Back to the positions', 'Positions');
    assertNoPageErrors(view.errors, 'position not found');
    await view.close();
  });

  it('renders a description\'s Markdown as elements: raw HTML in it is not injected', async () => {
    const hostile = '# Heading\n\n<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>\n\n[link](javascript:window.__pwned=3)\n\n- item';
    const created = await call('POST', '/api/v1/positions', { key: s.key, body: { title: `Hostile ${unique()}`, description: hostile } });
    assert.equal(created.status, 201, created.text);
    const view = await openPage(s.browser, WIDTHS.desktop);
    const { page } = view;
    await logIn(page, s.user, `positions/${created.body.data.id}`);
    await page.getByRole('heading', { name: 'Heading' }).waitFor();
    const section = page.getByRole('region', { name: 'Description', exact: true });
    assert.equal(await section.locator('img, script').count(), 0);
    const href = await section.getByRole('link', { name: 'link' }).getAttribute('href');
    assert.ok(!href?.startsWith('javascript:'), `a javascript: link is neutralised (${href})`);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    assertNoPageErrors(view.errors, 'hostile description');
    await view.close();
  });
});
