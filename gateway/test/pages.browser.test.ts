import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { eventually, testEnv } from '@hireloop/devstack/testing';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
// CI installs Chromium (.ci/run); on a machine without it these tests are skipped, never passed.
const skip = !existsSync(CHROMIUM) && !process.env['CI'] ? `no Chromium at ${CHROMIUM} (apt-get install chromium)` : false;

// The browser opens the pages at the public origin, as a user would: the same-origin check compares with it.
const publicBaseUrl = () => process.env['PUBLIC_BASE_URL']!;

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
  let browser: Browser;
  before(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  after(() => browser?.close());

  it('the console logs in, creates a key (a same-origin POST) and logs out, with nothing refused', async () => {
    const env = testEnv();
    const page = await browser.newPage();
    const violations = watchViolations(page);
    await page.goto(`${publicBaseUrl()}/console/`);
    await page.fill('#login-email', env.adminEmail);
    await page.fill('#login-password', env.adminPassword);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#console-view:not([hidden])');
    assert.equal(await page.textContent('#user-email'), env.adminEmail);

    await page.fill('#key-name', 'browser test key');
    await page.click('#keys-view form button[type=submit]');
    await page.waitForSelector('#new-key:not([hidden])');
    assert.match(await page.inputValue('#new-key-value'), /^hl_/);

    await page.click('#logout');
    await page.waitForSelector('#login-view:not([hidden])');
    assert.deepEqual(violations, []);
    await page.close();
  });

  it('the reference page renders Redoc from its self-hosted bundle, with nothing refused', async () => {
    const page = await browser.newPage();
    const violations = watchViolations(page);
    await page.goto(`${publicBaseUrl()}/developers/reference`);
    await page.waitForSelector('.api-content h1', { timeout: 30_000 });
    assert.match((await page.textContent('.api-content h1')) ?? '', /Hireloop/);
    // Redoc's "API docs by Redocly" badge points at its CDN; the policy keeps the page from calling out.
    assert.deepEqual(violations.filter((v) => !/Loading the image 'https:\/\/cdn\.redoc\.ly\//.test(v)), []);
    await page.close();
  });

  it('another page cannot frame the console (frame-ancestors \'none\')', async () => {
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (msg) => {
      if (/frame-ancestors/.test(msg.text())) refusals.push(msg.text());
    });
    await page.setContent(`<iframe src="${publicBaseUrl()}/console/"></iframe>`);
    await eventually(async () => refusals.length, (n) => n > 0, 10_000, 100);
    assert.ok(refusals.length > 0, 'Chromium refused to frame the console');
    const framed = page.frames().find((f) => f.url().includes('/console/'));
    assert.equal(await framed?.$('#login-form').catch(() => null) ?? null, null, 'the console did not render inside the frame');
    await page.close();
  });
});
