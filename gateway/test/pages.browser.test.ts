import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { eventually } from '@hireloop/devstack/testing';
import { consoleUrl, logIn, newConsoleUser, openPage, publicBaseUrl, skipWithoutChromium as skip, suiteBrowser } from './console-helpers.js';

/** Everything the browser reports as refused by a Content-Security-Policy, and every script error. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) seen.push(msg.text());
  });
  page.on('pageerror', (err) => seen.push(`page error: ${err.message}`));
  return seen;
}

describe('the HTML pages under their Content-Security-Policy headers, in a real browser', { skip }, () => {
  const s = suiteBrowser();

  it('the console logs in, refuses a wrong password, creates a key (a same-origin POST) and logs out, with nothing refused', async () => {
    const user = await newConsoleUser();
    const { page, errors, close } = await openPage(s.browser);
    await page.goto(consoleUrl());
    // No session: the console sends the browser to its login page.
    await page.waitForURL(/\/console\/login/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: /./ }).waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /password|e-mail|invalid/i);

    await logIn(page, user, 'keys');
    assert.equal(await page.getByTestId('user-email').textContent(), user.email);
    await page.getByLabel('Name').fill('browser test key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.getByRole('textbox', { name: 'The new API key' });
    await secret.waitFor();
    assert.match(await secret.inputValue(), /^hl_/);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/console\/login/);
    assert.deepEqual(errors, []);
    await close();
  });

  it('a deep link is answered with the console, and opens its view after login', async () => {
    const user = await newConsoleUser();
    const { page, errors, close } = await openPage(s.browser);
    const res = await page.goto(consoleUrl('keys'));
    assert.equal(res?.status(), 200);
    await page.waitForURL(/\/console\/login\?next=%2Fkeys/);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/console\/keys$/);
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    assert.deepEqual(errors, []);
    await close();
  });

  it('the reference page renders Redoc from its self-hosted bundle, loading nothing from another host', async () => {
    const page = await s.browser.newPage();
    const violations = watchViolations(page);
    const elsewhere: string[] = [];
    page.on('request', (req) => {
      // Redoc's search worker comes from a blob: URL of the page's own origin.
      const url = req.url();
      if (!url.startsWith('data:') && new URL(url).origin !== new URL(publicBaseUrl()).origin) elsewhere.push(url);
    });
    await page.goto(`${publicBaseUrl()}/developers/reference`);
    await page.waitForSelector('.api-content h1', { timeout: 30_000 });
    assert.match((await page.textContent('.api-content h1')) ?? '', /Hireloop/);
    assert.deepEqual(elsewhere, [], 'no logo, badge or font from another host');
    assert.deepEqual(violations, []);
    const favicon = await page.request.get(`${publicBaseUrl()}/favicon.ico`);
    assert.equal(favicon.status(), 200);
    await page.close();
  });

  it('another page cannot frame the console (frame-ancestors \'none\')', async () => {
    const page = await s.browser.newPage();
    const refusals: string[] = [];
    page.on('console', (msg) => {
      if (/frame-ancestors/.test(msg.text())) refusals.push(msg.text());
    });
    await page.setContent(`<iframe src="${publicBaseUrl()}/console/"></iframe>`);
    await eventually(async () => refusals.length, (n) => n > 0, 10_000, 100);
    assert.ok(refusals.length > 0, 'Chromium refused to frame the console');
    const framed = page.frames().find((f) => f.url().includes('/console/'));
    assert.equal(await framed?.$('form').catch(() => null) ?? null, null, 'the console did not render inside the frame');
    await page.close();
  });
});
