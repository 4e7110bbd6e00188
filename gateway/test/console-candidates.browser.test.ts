import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '@hireloop/devstack/testing';
import { unique } from './api-assertions.js';
import { assertNoOverflow, assertNoPageErrors, assertNoSuchResource, checkView, consoleSession, consoleUrl, logIn, openPage, skipWithoutChromium as skip, WIDTHS } from './console-helpers.js';

// Issue 10: the Candidates views, and journey 4 (a candidate created through the REST API shows
// up in the console's search), at a laptop's and a phone's width.

describe('console: candidates', { skip }, () => {
  const s = consoleSession(['read', 'write'], 6000);

  for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
    it(`journey 4 at ${width} px: a candidate created through the REST API is found by the search and opens its profile`, async () => {
      const word = `Zed${unique()}`;
      const created = await call('POST', '/api/v1/candidates', { key: s.key, body: { name: `Rita ${word}`, email: `rita-${unique()}@example.com`, phone: '+44 20 7946 0000', metadata: { team: 'platform' } } });
      assert.equal(created.status, 201, created.text);
      const candidate = created.body.data as { id: string; name: string; email: string };

      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, s.user, 'candidates');
      await checkView(view, 'candidates', 'Candidates');
      await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(`rita ${word.slice(0, -2).toLowerCase()}`);
      await page.waitForURL(/[?&]q=rita/); // the search is in the URL
      const link = page.getByRole('link', { name: candidate.name });
      await link.waitFor();
      const results = page.getByRole('region', { name: 'Matching candidates' });
      await results.and(page.locator('[aria-busy="false"]')).waitFor();
      assert.equal(await results.getByRole('link').count(), 1, 'only the match is listed');
      await assertNoOverflow(page, `candidates search at ${width} px`);

      await link.click();
      await page.getByRole('heading', { level: 1, name: candidate.name }).waitFor();
      assert.ok(page.url().endsWith(`/console/candidates/${candidate.id}`));
      await page.getByText(candidate.email).first().waitFor();
      await page.getByText('platform').first().waitFor();
      for (const section of ['Interviews', 'Evaluations', 'Hiring flows', 'Audit trail']) await page.getByRole('heading', { level: 2, name: section }).waitFor();
      await page.getByText('No interviews yet.').waitFor();
      await assertNoOverflow(page, `candidate profile at ${width} px`);

      await page.goBack();
      await page.getByRole('link', { name: candidate.name }).waitFor();
      assertNoPageErrors(view.errors, `candidates at ${width} px`);
      await view.close();
    });

    it(`at ${width} px: creates a candidate, refuses a taken e-mail on its field, and edits the candidate`, async () => {
      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, s.user, 'candidates/new');
      await checkView(view, 'candidates/new', 'New candidate');

      await page.getByRole('button', { name: 'Create candidate' }).click();
      await page.locator('[aria-invalid="true"]').first().waitFor();
      assert.equal(await page.getByLabel('Name').getAttribute('aria-invalid'), 'true', 'an empty name is refused before anything is sent');

      const name = `Mo ${unique()}`;
      const email = `mo-${unique()}@example.com`;
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Add a metadata field' }).click();
      await page.getByLabel('Key 1').fill('source');
      await page.getByLabel('Value 1').fill('referral');
      await page.getByRole('button', { name: 'Create candidate' }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const id = /\/candidates\/(cand_[^/]+)$/.exec(page.url())?.[1];
      assert.ok(id, page.url());
      await page.getByText('referral').waitFor();

      // Another candidate holds this e-mail: the server's 409 is shown on the E-mail field.
      const taken = `taken-${unique()}@example.com`;
      assert.equal((await call('POST', '/api/v1/candidates', { key: s.key, body: { name: 'Other', email: taken } })).status, 201);
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.getByRole('heading', { level: 1, name: `Edit ${name}` }).waitFor();
      await page.getByLabel('E-mail').fill(taken);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('A candidate with this e-mail exists already.').waitFor();
      assert.equal(await page.getByLabel('E-mail').getAttribute('aria-invalid'), 'true');
      await page.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
      assert.equal(await page.evaluate(() => document.activeElement?.id), await page.getByLabel('E-mail').getAttribute('id'), 'the server\'s refusal takes the focus to its field');
      await page.getByRole('link', { name: 'Open the candidate with this e-mail' }).waitFor();
      await assertNoOverflow(page, `candidate edit with errors at ${width} px`);

      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Name').fill(`${name} Jr`);
      await page.getByLabel('Phone').fill('+1 555 0100');
      await page.getByRole('button', { name: 'Remove metadata source' }).click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('heading', { level: 1, name: `${name} Jr` }).waitFor();

      const stored = await call('GET', `/api/v1/candidates/${id}`, { key: s.key });
      assert.equal(stored.body.data.name, `${name} Jr`);
      assert.equal(stored.body.data.phone, '+1 555 0100');
      assert.equal(stored.body.data.email, email);
      assert.deepEqual(stored.body.data.metadata, {}, 'the removed key is removed (sent as null)');
      // The profile's audit trail shows the console user's edit of this candidate.
      const trail = page.locator('section', { has: page.getByRole('heading', { level: 2, name: 'Audit trail' }) });
      await trail.getByText('candidate.updated').first().waitFor();
      await assertNoOverflow(page, `candidate profile with its audit trail at ${width} px`);
      assertNoPageErrors(view.errors, `candidate forms at ${width} px`);
      await view.close();
    });
  }

  it('pages through the list and shows the empty state of a search that matches nothing', async () => {
    const word = `Pg${unique()}`;
    await addCandidates(s.key, 27, `Paged ${word}`);
    const view = await openPage(s.browser, WIDTHS.phone);
    const { page } = view;
    await logIn(page, s.user, `candidates?q=${word}`);
    await page.getByRole('link', { name: `Paged ${word} 26` }).waitFor();
    assert.equal(await page.getByRole('link', { name: new RegExp(`^Paged ${word} `) }).count(), 25);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('link', { name: `Paged ${word} 0` }).waitFor();
    assert.equal(await page.getByRole('link', { name: new RegExp(`^Paged ${word} `) }).count(), 2);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('link', { name: `Paged ${word} 26` }).waitFor();

    // Another search starts again on page 1.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('link', { name: `Paged ${word} 0` }).waitFor();
    await page.getByRole('searchbox', { name: 'Search by name or e-mail' }).fill(`${word} nobody`);
    await page.getByText('No candidate matches.', { exact: false }).waitFor();
    assert.doesNotMatch(page.url(), /[?&](cursor|page)=/, 'the search dropped the page');
    await assertNoOverflow(page, 'candidates list at 390 px');
    assertNoPageErrors(view.errors, 'candidates paging');
    await view.close();
  });

  it('a well-formed id of no candidate is a not-found page with the way back, not an error with Retry; a malformed one is refused without Retry', async () => {
    const view = await openPage(s.browser, WIDTHS.desktop);
    await logIn(view.page, s.user);
    const missing = 'cand_0000000000000000000000000000';
    await assertNoSuchResource(view, `candidates/${missing}`, 'No such candidate', 'Back to the candidates', 'Candidates');
    await assertNoSuchResource(view, `candidates/${missing}/edit`, 'No such candidate', 'Back to the candidates', 'Candidates');
    // A malformed id names nothing either: the same page, not "must be an id starting with cand_".
    await assertNoSuchResource(view, 'candidates/nope', 'No such candidate', 'Back to the candidates', 'Candidates');
    assertNoPageErrors(view.errors, 'candidate not found');
    await view.close();
  });

  it('keeps the page in the URL: a reload and Back show the page seen, and the pager keeps keyboard focus at either end', async () => {
    const word = `Pu${unique()}`;
    await addCandidates(s.key, 27, `Kept ${word}`);
    const view = await openPage(s.browser, WIDTHS.desktop);
    const { page } = view;
    await logIn(page, s.user, `candidates?q=${word}`);
    const pager = page.getByRole('navigation', { name: 'Candidate pages' });
    const next = pager.getByRole('button', { name: 'Next' });
    const previous = pager.getByRole('button', { name: 'Previous' });
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName);
    await page.getByRole('link', { name: `Kept ${word} 26` }).waitFor();
    assert.equal(await previous.getAttribute('aria-disabled'), 'true', 'Previous on page 1 is marked, not disabled');
    assert.equal(await previous.evaluate((b) => (b as HTMLButtonElement).disabled), false, 'Previous on page 1 stays focusable');

    // Next by keyboard to the last page: the focus stays on Next, which now does nothing.
    await next.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: `Kept ${word} 0` }).waitFor();
    await page.waitForURL(/[?&]page=2(&|$)/);
    assert.match(page.url(), /[?&]cursor=[^&]+/, 'the cursor is in the URL');
    await pager.getByText('Page 2').waitFor();
    assert.equal(await next.getAttribute('aria-disabled'), 'true');
    assert.equal(await focused(), 'Next', 'Next keeps the keyboard focus on the last page');
    const last = page.url();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(300);
    assert.equal(page.url(), last, 'Next on the last page does nothing');

    // A reload shows the same page, and Previous still returns to page 1.
    await page.reload();
    await page.getByRole('link', { name: `Kept ${word} 0` }).waitFor();
    await pager.getByText('Page 2').waitFor();
    await previous.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: `Kept ${word} 26` }).waitFor();
    await pager.getByText('Page 1').waitFor();
    assert.equal(await focused(), 'Previous', 'Previous keeps the keyboard focus on page 1');
    assert.doesNotMatch(page.url(), /[?&](cursor|page)=/);

    // Back returns to the page before, and Back again to the first.
    await page.goBack();
    await page.getByRole('link', { name: `Kept ${word} 0` }).waitFor();
    await pager.getByText('Page 2').waitFor();
    await page.goBack();
    await page.getByRole('link', { name: `Kept ${word} 26` }).waitFor();
    await pager.getByText('Page 1').waitFor();
    assertNoPageErrors(view.errors, 'candidates paging in the URL');

    // A pasted link with a cursor that cannot be read offers the way back to page 1.
    await page.goto(consoleUrl('candidates?cursor=garbage&page=2'));
    await page.getByText('This page could not be loaded.').waitFor();
    await page.getByRole('button', { name: 'Go to the first page' }).click();
    await page.getByRole('link', { name: `Kept ${word} 26` }).waitFor();
    assert.doesNotMatch(page.url(), /[?&](cursor|page)=/);
    await view.close();
  });
});

/** `count` candidates named `<name> 0` … `<name> <count-1>`, the last the newest. */
async function addCandidates(key: string, count: number, name: string): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await call('POST', '/api/v1/candidates', { key, body: { name: `${name} ${i}`, email: `paged-${i}-${unique()}@example.com` } });
    assert.equal(res.status, 201, res.text);
  }
}
