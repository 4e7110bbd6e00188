import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { call } from '@hireloop/devstack/testing';
import { assertNoOverflow, assertNoPageErrors, assertNoSuchResource, checkView, consoleUrl, logIn, newConsoleUser, openPage, publicBaseUrl, skipWithoutChromium, suiteBrowser, waitForFocus, waitForFocusWithin, WIDTHS, type ConsoleUser } from './console-helpers.js';

// Issue 10, journey 1 (and 5 for these views): log in (a wrong password refused), create a key,
// call the REST API with it, revoke it in the console, and see the next REST call get 401
// revoked_api_key; at 1280 and 390 px, with no horizontal overflow and no page error on any view.
describe('console journey: API keys, webhooks and ATS mappings', { skip: skipWithoutChromium }, () => {
  const s = suiteBrowser();

  for (const width of [WIDTHS.desktop, WIDTHS.phone]) {
    it(`at ${width} px: a wrong password is refused; a key made in the console works until it is revoked there`, async () => {
      const user: ConsoleUser = await newConsoleUser();
      const view = await openPage(s.browser, width);
      const { page } = view;
      await page.goto(consoleUrl('keys'));
      await page.getByLabel('E-mail').fill(user.email);
      await page.getByLabel('Password').fill(`${user.password}-wrong`);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').filter({ hasText: /./ }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Log out' }).count(), 0, 'still logged out');
      await assertNoOverflow(page, `login at ${width} px`);

      await logIn(page, user, 'keys');
      await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
      await page.getByLabel('Name').fill(`journey ${width}`);
      await page.getByRole('checkbox', { name: /^admin/ }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.getByRole('textbox', { name: 'The new API key' });
      await secret.waitFor();
      const key = await secret.inputValue();
      assert.match(key, /^hl_/);
      await assertNoOverflow(page, `keys with a new key at ${width} px`);

      const me = await call('GET', '/api/v1/me', { key });
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.data.organization.id, user.organizationId);

      // The list shows the key's full prefix; the secret goes away with Done.
      const prefix = key.slice(0, 11);
      await page.getByText(prefix, { exact: true }).first().waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      assert.equal(await secret.count(), 0, 'the secret is shown only once');
      // Focus goes back to where it was before the secret appeared, not to the page's start.
      await waitForFocus(page, page.getByRole('button', { name: 'Create key' }), 'after Done');

      await page.getByRole('button', { name: `Revoke key journey ${width}` }).click();
      const dialog = page.getByRole('dialog');
      // The safe choice has focus as the dialog opens: Enter twice does not revoke.
      await waitForFocus(page, dialog.getByRole('button', { name: 'Cancel' }), 'as the confirmation opens');
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await page.getByText('revoked', { exact: true }).waitFor();
      // The row's Revoke button is gone: focus goes to the message that says what happened.
      await waitForFocus(page, page.getByRole('status').filter({ hasText: `The key “journey ${width}” is revoked` }), 'after revoking');
      const refused = await call('GET', '/api/v1/me', { key });
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 'revoked_api_key');

      // The filter hides revoked keys.
      await page.getByRole('checkbox', { name: 'Hide revoked keys' }).check();
      await page.getByText('No active keys.').waitFor();
      // The filter is in the URL: a reload keeps it (a page's cursor belongs to its filter).
      assert.match(page.url(), /[?&]active=1/);
      await page.reload();
      await page.getByText('No active keys.').waitFor();
      assert.ok(await page.getByRole('checkbox', { name: 'Hide revoked keys' }).isChecked(), 'still hidden after a reload');
      await assertNoOverflow(page, `keys at ${width} px`);
      assertNoPageErrors(view.errors, `keys at ${width} px`);
      await view.close();
    });

    it(`at ${width} px: webhooks (list, create with the secret shown once, detail) and ATS mappings fit and raise no page error`, async () => {
      const user = await newConsoleUser();
      const view = await openPage(s.browser, width);
      const { page } = view;
      await logIn(page, user, 'webhooks');
      await checkView(view, 'webhooks', 'Webhooks');
      await page.getByText('No webhooks yet.').waitFor();
      await page.getByLabel('Endpoint URL').fill(`http://127.0.0.1:9/hooks/${'long-path-segment-'.repeat(6)}${width}`);
      await page.getByLabel('Description').fill('Journey endpoint');
      await page.getByRole('button', { name: 'Register webhook' }).click();
      const secret = page.getByRole('textbox', { name: 'The webhook’s signing secret' });
      await secret.waitFor();
      assert.match(await secret.inputValue(), /^whsec_/);
      await assertNoOverflow(page, `webhooks with a new secret at ${width} px`);
      await page.getByRole('link', { name: 'Open the webhook' }).click();
      await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
      const detail = new URL(page.url()).pathname.replace('/console/', '');
      assert.match(detail, /^webhooks\/wh_/);
      await checkView(view, detail);
      // Saving the edit form keeps focus and says so: the page's refresh does not rebuild the form.
      await page.getByLabel('Description').fill('Journey endpoint, edited');
      const save = page.getByRole('button', { name: 'Save changes' });
      await save.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.waitForTimeout(750);
      await waitForFocus(page, save, 'after saving the webhook');
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // A double click on Send a test event sends one ping.
      const deliveries = page.getByRole('region', { name: 'Deliveries' });
      const pings = async () => {
        await deliveries.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(500);
        return deliveries.locator('code', { hasText: /^webhook\.ping$/ }).count();
      };
      const before = await pings();
      await page.getByRole('button', { name: 'Send a test event' }).dblclick();
      await page.getByRole('status').filter({ hasText: 'Test event' }).waitFor();
      // Until the list shows the ping (a busy machine's refresh may take longer than one wait),
      // then once more a second later: a second ping would show by then.
      for (let i = 0; i < 20 && (await pings()) === before; i++);
      await page.waitForTimeout(1000);
      assert.equal(await pings(), before + 1, 'one test event for a double click');
      // A well-formed id of no webhook: not found, with the way back (no Retry for a 404).
      await assertNoSuchResource(view, `webhooks/wh_${'0'.repeat(22)}`, 'No such webhook', 'Back to the webhooks', 'Webhooks');
      await checkView(view, detail);
      // Actions keep keyboard focus while they run (a disabled button would drop it to <body>),
      // and a delivery's Retry says what it did.
      const sendTest = page.getByRole('button', { name: 'Send a test event' });
      await sendTest.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Test event' }).waitFor();
      await waitForFocus(page, sendTest, 'after sending a test event');
      const retry = page.getByRole('button', { name: /^Retry the delivery of webhook\.ping/ });
      // The ping is `pending` until its first attempt (refused: nothing listens on port 9) fails.
      for (let i = 0; i < 40 && (await retry.count()) === 0; i++) {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await page.waitForTimeout(250);
      }
      await retry.first().focus();
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: /The delivery of webhook\.ping \(evt_\w+\) is sent again/ }).waitFor();
      // The retried delivery is `pending` again, and has no Retry then: focus goes to the message.
      await page.waitForTimeout(500);
      await waitForFocusWithin(page, page.getByRole('region', { name: 'Deliveries' }), 'after a retry');

      await checkView(view, 'ats', 'ATS stage mappings');
      await page.getByText('No mappings yet', { exact: false }).waitFor();
      await page.getByLabel('Source').fill('greenhouse');
      await page.getByLabel('Stage names').fill('Phone Screen, AI interview');
      await page.getByRole('button', { name: 'Save mappings' }).click();
      const current = page.getByRole('region', { name: 'Current mappings' });
      await current.getByText('greenhouse', { exact: true }).waitFor();
      await current.getByText('phone screen', { exact: true }).waitFor();
      await assertNoOverflow(page, `ats at ${width} px`);
      assertNoPageErrors(view.errors, `webhooks and ats at ${width} px`);
      await view.close();
    });
  }

  it('a session that ends while the console is open sends the next call to the login page, and back after logging in', async () => {
    const user = await newConsoleUser();
    const view = await openPage(s.browser);
    const { page, context } = view;
    await logIn(page, user, 'keys');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    // The session ends on the server (as on expiry); the browser still holds its cookie.
    await endSessionOnServer(context);

    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(/\/console\/login\?/);
    await page.getByText('Your session has ended; log in again.').waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/console\/webhooks$/);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    assertNoPageErrors(view.errors, 'session expiry');
    await view.close();
  });

  it('a session that ends during a save asks to log in again over the page, keeps what was typed, and the save goes through after', async () => {
    const user = await newConsoleUser();
    const view = await openPage(s.browser);
    const { page, context } = view;
    await logIn(page, user, 'keys');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    const endSession = () => endSessionOnServer(context);
    const name = page.getByLabel('Name');
    const create = page.getByRole('button', { name: 'Create key' });
    const relogin = page.getByRole('dialog', { name: 'Your session has ended' });

    // Giving up on the dialog goes to the login page, which says why, and back after logging in.
    await name.fill('typed before the session ended');
    await endSession();
    await create.click();
    await relogin.waitFor();
    assert.equal(await relogin.getByLabel('E-mail').inputValue(), user.email, 'the e-mail is filled in');
    await relogin.getByRole('button', { name: 'Go to the login page' }).click();
    await page.waitForURL(/\/console\/login\?.*reason=expired/);
    await page.getByText('Your session has ended; log in again.').waitFor();
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/console\/keys$/);

    // Logging in over the page keeps the form: the save is made with one more press.
    await name.fill('kept across a new login');
    await endSession();
    await create.click();
    await relogin.waitFor();
    await waitForFocus(page, relogin.getByLabel('Password'), 'the dialog asks for the password');
    await relogin.getByLabel('Password').fill(`${user.password}-wrong`);
    await relogin.getByRole('button', { name: 'Log in' }).click();
    await relogin.getByRole('alert').filter({ hasText: /./ }).waitFor();
    await relogin.getByLabel('Password').fill(user.password);
    await relogin.getByRole('button', { name: 'Log in' }).click();
    await relogin.waitFor({ state: 'hidden' });
    assert.match(page.url(), /\/console\/keys$/, 'still on the page');
    assert.equal(await name.inputValue(), 'kept across a new login', 'the typed name is kept');
    await waitForFocus(page, create, 'focus goes back to the button that was pressed');
    await create.click();
    const secret = page.getByRole('textbox', { name: 'The new API key' });
    await secret.waitFor();
    assert.match(await secret.inputValue(), /^hl_/);
    await page.getByRole('cell', { name: 'kept across a new login' }).first().waitFor();
    assertNoPageErrors(view.errors, 'a session ended during a save');
    await view.close();
  });
});

/** Ends the browser's console session on the server (as on expiry); the browser keeps its cookie. */
async function endSessionOnServer(context: BrowserContext): Promise<void> {
  const cookie = (await context.cookies()).find((c) => c.name === 'hl_session');
  assert.ok(cookie, 'a session cookie');
  const ended = await call('POST', '/auth/logout', { headers: { cookie: `${cookie.name}=${cookie.value}`, origin: publicBaseUrl() } });
  assert.equal(ended.status, 204);
}
