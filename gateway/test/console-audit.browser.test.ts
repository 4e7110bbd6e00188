import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '@hireloop/devstack/testing';
import { checkView, consoleSession, consoleUrl, logIn, openPage, skipWithoutChromium, WIDTHS } from './console-helpers.js';

/**
 * Issue 11 item 4 in the console: the audit log lists the organization's writes with their actor,
 * filters them, and is usable at 1280 and 390 px with no horizontal overflow and no page error.
 */
describe('console: audit log', { skip: skipWithoutChromium }, () => {
  const s = consoleSession(['write']);
  let candidateId: string;

  before(async () => {
    const created = await call('POST', '/api/v1/candidates', { key: s.key, body: { email: `audit-view-${Date.now().toString(36)}@example.test`, name: 'Audit View' } });
    assert.equal(created.status, 201, created.text);
    candidateId = created.body.data.id as string;
  });

  it('lists writes with their actor and filters them by action and resource', async () => {
    const { page, errors, close } = await openPage(s.browser, WIDTHS.desktop);
    await logIn(page, s.user, 'audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await page.getByText('candidate.created').first().waitFor();
    await page.getByText('user.created').first().waitFor();

    await page.getByLabel('Resource id').fill(candidateId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('user.created').waitFor({ state: 'detached' });
    assert.equal(await page.getByText('candidate.created').count(), 1);

    await page.getByLabel('Resource id').fill('');
    await page.getByLabel('Action').fill('webhook.deleted');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No event matches these filters.').waitFor();
    assert.deepEqual(errors, []);
    await close();
  });

  it('filters by creation day, from the form and from a link, and keeps the filters in the URL', async () => {
    const { page, errors, close } = await openPage(s.browser, WIDTHS.desktop);
    await logIn(page, s.user, 'audit');
    await page.getByText('candidate.created').first().waitFor();

    // Everything here was written today: a window that ended long ago holds none of it.
    await page.getByLabel('Created until').fill('2001-01-31');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No event matches these filters.').waitFor();
    assert.match(page.url(), /[?&]to=2001-01-31/);

    // A window that starts then holds it all.
    await page.getByLabel('Created until').fill('');
    await page.getByLabel('Created from').fill('2001-01-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/[?&]from=2001-01-01/);
    await page.getByText('candidate.created').first().waitFor();
    assert.doesNotMatch(page.url(), /[?&]to=/);

    // A link opens the log with its filters applied and shown in the form.
    await page.goto(consoleUrl(`audit?from=2001-01-01&to=2001-01-31&resourceId=${candidateId}`));
    await page.getByText('No event matches these filters.').waitFor();
    assert.equal(await page.getByLabel('Created until').inputValue(), '2001-01-31');
    assert.equal(await page.getByLabel('Resource id').inputValue(), candidateId);

    // An end before the start is refused on its field, and nothing changes.
    await page.getByLabel('Created from').fill('2001-02-01');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('input[name="to"][aria-invalid="true"]').waitFor();
    assert.match(page.url(), /[?&]from=2001-01-01/, 'the URL keeps the filters last applied');
    assert.deepEqual(errors, []);
    await close();
  });

  for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
    it(`renders at ${width} px without horizontal overflow`, async () => {
      const view = await openPage(s.browser, width);
      await logIn(view.page, s.user, 'audit');
      await checkView(view, 'audit', 'Audit log');
      await view.page.getByText('candidate.created').first().waitFor();
      await view.close();
    });
  }
});
